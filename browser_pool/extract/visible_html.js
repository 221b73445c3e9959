// The document as HTML without what the page hides from its reader: elements that are display:none (closed
// popovers and dialogs, hover cards and tooltips waiting for a hover, collapsed menus) and visibility:hidden boxes
// with nothing visible inside. The live DOM is left untouched: a copy is pruned, walking it beside the original
// (whose computed style says what is shown) and skipping the subtree of every element dropped.
() => {
  const copy = document.documentElement.cloneNode(true);
  const body = document.body;
  const copyBody = body && copy.querySelector(":scope > body");
  // Scripts are never shown, but structured data (JSON-LD) lives in them; the extractor drops them itself.
  const keep = new Set(["SCRIPT"]);
  const shownInside = (element) => {
    for (const inner of element.querySelectorAll("*")) {
      if (getComputedStyle(inner).visibility === "visible") return true;
    }
    return false;
  };
  // Some pages hide the whole body until their fonts or scripts are ready; then visibility says nothing.
  const pageShown = body && getComputedStyle(body).visibility === "visible";
  const hidden = (element) => {
    if (keep.has(element.tagName)) return false;
    const style = getComputedStyle(element);
    if (style.display === "none") return true;
    return pageShown && style.visibility !== "visible" && !shownInside(element);
  };
  if (copyBody) {
    const stack = [[body, copyBody]];
    while (stack.length) {
      const [original, clone] = stack.pop();
      const originals = original.children;
      const clones = clone.children;
      if (originals.length !== clones.length) continue;
      const dropped = [];
      for (let i = 0; i < originals.length; i++) {
        if (hidden(originals[i])) dropped.push(clones[i]);
        else stack.push([originals[i], clones[i]]);
      }
      for (const element of dropped) element.remove();
    }
  }
  const doctype = document.doctype ? "<!DOCTYPE html>" : "";
  return doctype + copy.outerHTML;
}
