// MathJax settings for the site: the notebooks' markdown uses Jupyter's
// $...$ and $$...$$, the markdown pages arithmatex's \(...\) and \[...\].
window.MathJax = {
  tex: {
    inlineMath: [["$", "$"], ["\\(", "\\)"]],
    displayMath: [["$$", "$$"], ["\\[", "\\]"]],
    processEscapes: true,
    processEnvironments: true,
  },
};

// Material replaces page content without a reload: typeset each new page.
if (typeof document$ !== "undefined") {
  document$.subscribe(function () {
    if (window.MathJax && MathJax.typesetPromise) {
      MathJax.typesetPromise();
    }
  });
}
