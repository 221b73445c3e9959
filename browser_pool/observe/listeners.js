// Installed before a page's own scripts: remembers which elements get a click-like listener, through
// addEventListener or an `onclick = ...` style property, so the page model can list a <span> or <div> the page
// made clickable. The mark is a non-enumerable Symbol property: page scripts walking the element's keys never see it.
// It also counts the windows the page's scripts open.
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
  // Counts the windows a script opened (window.open calls the popup blocker let through), so an action can tell a
  // popup is on its way before the browser has finished announcing the new tab.
  const OPENED = Symbol.for("hive.windowsOpened");
  const open = window.open;
  if (typeof open === "function") {
    Object.defineProperty(window, OPENED, { value: 0, writable: true, configurable: true });
    const wrapped = {
      open(...args) {
        const opened = open.apply(this, args);
        if (opened) window[OPENED] += 1;
        return opened;
      },
    }.open;
    Object.defineProperty(wrapped, "name", { value: "open" });
    window.open = wrapped;
  }
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
