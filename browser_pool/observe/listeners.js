// Installed before a page's own scripts: remembers which elements get a click-like listener through
// addEventListener, so the page model can list a <span> or <div> the page made clickable. The mark is a
// non-enumerable Symbol property: page scripts walking the element's keys never see it.
(() => {
  const MARK = Symbol.for("hive.clickListener");
  const EVENTS = new Set(["click", "dblclick", "mousedown", "mouseup", "pointerdown", "pointerup", "touchstart"]);
  const original = EventTarget.prototype.addEventListener;
  if (original[MARK]) return;
  function addEventListener(type, listener, options) {
    // Listeners on the document's root catch every click on the page (delegation): they say nothing of a target.
    if (EVENTS.has(type) && this instanceof Element && this.localName !== "html" && this.localName !== "body") {
      try { Object.defineProperty(this, MARK, { value: true, configurable: true }); } catch (e) { /* frozen */ }
    }
    return original.call(this, type, listener, options);
  }
  Object.defineProperty(addEventListener, MARK, { value: true });
  EventTarget.prototype.addEventListener = addEventListener;
})();
