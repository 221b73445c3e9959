// Installed before a page's own scripts: remembers which elements get a click-like listener, through
// addEventListener or an `onclick = ...` style property, so the page model can list a <span> or <div> the page
// made clickable. The mark is a non-enumerable Symbol property: page scripts walking the element's keys never see it.
(() => {
  const MARK = Symbol.for("hive.clickListener");
  const EVENTS = new Set(["click", "dblclick", "mousedown", "mouseup", "pointerdown", "pointerup", "touchstart"]);
  const original = EventTarget.prototype.addEventListener;
  if (original[MARK]) return;
  // Listeners on the document's root catch every click on the page (delegation): they say nothing of a target.
  const mark = (target) => {
    if (target instanceof Element && target.localName !== "html" && target.localName !== "body") {
      try { Object.defineProperty(target, MARK, { value: true, configurable: true }); } catch (e) { /* frozen */ }
    }
  };
  function addEventListener(type, listener, options) {
    if (EVENTS.has(type)) mark(this);
    return original.call(this, type, listener, options);
  }
  Object.defineProperty(addEventListener, MARK, { value: true });
  EventTarget.prototype.addEventListener = addEventListener;
  for (const type of EVENTS) {
    const property = Object.getOwnPropertyDescriptor(HTMLElement.prototype, "on" + type);
    if (!property || !property.set) continue;
    Object.defineProperty(HTMLElement.prototype, "on" + type, {
      ...property,
      set(handler) {
        if (typeof handler === "function") mark(this);
        property.set.call(this, handler);
      },
    });
  }
})();
