// Scroll `el`'s nearest scrollable container (or the page when `el` is null) by [dx, dy] CSS pixels and report
// how far it really moved, so the model learns when it has reached the end.
(el, [dx, dy]) => {
  const canScroll = (node) => {
    if (!node || node.nodeType !== Node.ELEMENT_NODE) return false;
    const cs = getComputedStyle(node);
    const y = dy !== 0 && /(auto|scroll|overlay)/.test(cs.overflowY) && node.scrollHeight > node.clientHeight;
    const x = dx !== 0 && /(auto|scroll|overlay)/.test(cs.overflowX) && node.scrollWidth > node.clientWidth;
    return x || y;
  };
  const parentOf = (node) => node.parentElement || (node.parentNode && node.parentNode.host) || null;
  const page = document.scrollingElement || document.documentElement;
  const pageCanScroll = dy !== 0 ? page.scrollHeight > innerHeight : page.scrollWidth > innerWidth;

  let box = null;
  if (el) {
    for (let node = el; node; node = parentOf(node)) if (canScroll(node)) { box = node; break; }
  } else if (!pageCanScroll) {
    // Many apps keep the document fixed and scroll a main panel; use the largest panel that can move this way.
    let best = 0;
    for (const node of document.querySelectorAll("body *")) {
      if (node.scrollHeight <= node.clientHeight && node.scrollWidth <= node.clientWidth) continue;
      if (!canScroll(node)) continue;
      const area = node.clientWidth * node.clientHeight;
      if (area > best) { best = area; box = node; }
    }
  }
  const scroller = box || page;
  const before = [scroller.scrollLeft, scroller.scrollTop];
  if (box) box.scrollBy({ left: dx, top: dy, behavior: "instant" });
  else (el ? el.ownerDocument.defaultView : window).scrollBy({ left: dx, top: dy, behavior: "instant" });
  const after = [scroller.scrollLeft, scroller.scrollTop];
  const maxX = scroller.scrollWidth - (box ? box.clientWidth : innerWidth);
  const maxY = scroller.scrollHeight - (box ? box.clientHeight : innerHeight);
  const atEnd = dy > 0 ? after[1] >= maxY - 1 : dy < 0 ? after[1] <= 0 : dx > 0 ? after[0] >= maxX - 1 : after[0] <= 0;
  return {
    moved: [Math.round(after[0] - before[0]), Math.round(after[1] - before[1])],
    position: [Math.round(after[0]), Math.round(after[1])],
    size: [scroller.scrollWidth, scroller.scrollHeight],
    container: box ? box.localName + (box.id ? "#" + box.id : "") : "page",
    atEnd,
  };
}
