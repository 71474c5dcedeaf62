"""MkDocs hook that keeps the tutorial notebooks' pages small.

mkdocs-jupyter writes each notebook as one page with everything inlined: about
580 KB of JupyterLab's stylesheet and every figure as a base64 ``data:`` URL,
1 MB or more per tutorial. After a notebook's page is rendered this hook moves
the large stylesheets to files of their own (the same files for every
notebook, so a browser loads them once) and each figure to an image file
beside the page; the page links to them. What the page shows is unchanged.
"""

import base64
import hashlib
import os
import posixpath
import re

from mkdocs.utils import get_relative_url

# Where the stylesheets moved out of the notebooks' pages go, in the built site.
NOTEBOOK_CSS_DIR = "stylesheets/notebooks"

# Inline stylesheets up to this many characters stay in the page.
_SMALL_STYLE_CHARS = 2000

_STYLE = re.compile(r"<style[^>]*>(.*?)</style>", re.S)
_DATA_IMAGE = re.compile(
    r'src="data:image/(png|jpeg|gif|svg\+xml);base64,([A-Za-z0-9+/=\s]+)"')
_EXTENSIONS = {"png": "png", "jpeg": "jpg", "gif": "gif", "svg+xml": "svg"}


def _write(path: str, data: bytes) -> None:
  os.makedirs(os.path.dirname(path), exist_ok=True)
  with open(path, "wb") as f:
    f.write(data)


def on_post_page(output: str, page, config) -> str:
  """Moves a notebook page's stylesheets and figures to files of their own.

  Args:
    output: the page's HTML.
    page: the MkDocs page.
    config: the MkDocs configuration.

  Returns:
    The page's HTML, linking to the files instead of inlining them.
  """
  if not page.file.src_uri.endswith(".ipynb"):
    return output
  site_dir = config["site_dir"]
  page_dest = page.file.dest_uri

  def move_style(match: re.Match) -> str:
    css = match.group(1)
    if len(css) <= _SMALL_STYLE_CHARS:
      return match.group(0)
    digest = hashlib.sha256(css.encode("utf-8")).hexdigest()[:16]
    css_uri = f"{NOTEBOOK_CSS_DIR}/{digest}.css"
    css_path = os.path.join(site_dir, *css_uri.split("/"))
    if not os.path.exists(css_path):
      _write(css_path, css.encode("utf-8"))
    href = get_relative_url(css_uri, page_dest)
    return f'<link rel="stylesheet" href="{href}">'

  page_dir = posixpath.dirname(page_dest)
  stem = posixpath.splitext(posixpath.basename(page.file.src_uri))[0]
  figures = 0

  def move_figure(match: re.Match) -> str:
    nonlocal figures
    figures += 1
    data = base64.b64decode("".join(match.group(2).split()))
    name = f"{stem}-figure-{figures}.{_EXTENSIONS[match.group(1)]}"
    image_uri = posixpath.join(page_dir, name)
    _write(os.path.join(site_dir, *image_uri.split("/")), data)
    return f'src="{get_relative_url(image_uri, page_dest)}"'

  output = _STYLE.sub(move_style, output)
  return _DATA_IMAGE.sub(move_figure, output)
