"""Custom pyspiel games of the papers, registered on import."""
