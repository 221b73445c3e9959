// One clipboard per session (browser_pool/clipboard.py). Chromium keeps one clipboard for the whole browser, which
// every session on the worker shares; this script runs in every document of a session before the page's own
// scripts, so its listeners come first, and it keeps the session's copies off that shared clipboard:
// - a copy or cut (keys, execCommand, a menu) gives the shared clipboard an empty text; the page's own copy
//   handlers run on a copy of the event, and what they set (or the selection) goes to the session's clipboard;
// - navigator.clipboard.writeText/write write to the session's clipboard;
// - a paste (Control+V, Shift+Insert, a middle click) never hands the page what the shared clipboard holds: the
//   page gets a paste event with the session's clipboard, and the text goes in where a paste would put it.
// Reading without a paste (navigator.clipboard.read*) stays refused: the permission is never granted.
(() => {
  const TOKEN = "__HIVE_CLIPBOARD_TOKEN__";
  const call = globalThis["__HIVE_CLIPBOARD_BINDING__"];
  if (typeof call !== "function") return;
  try {
    delete globalThis["__HIVE_CLIPBOARD_BINDING__"]; // the page has no business calling it
  } catch (e) {
    // kept where it cannot be deleted; it still answers only to the token
  }

  // The built-ins used below, taken before any page script can replace them.
  const DataTransferCtor = DataTransfer;
  const ClipboardEventCtor = ClipboardEvent;
  const dispatch = EventTarget.prototype.dispatchEvent;
  const listen = EventTarget.prototype.addEventListener;
  const prevent = Event.prototype.preventDefault;
  const stop = Event.prototype.stopImmediatePropagation;
  const composedPath = Event.prototype.composedPath;
  const setData = DataTransfer.prototype.setData;
  const getData = DataTransfer.prototype.getData;
  const typesOf = Object.getOwnPropertyDescriptor(DataTransfer.prototype, "types").get;
  const execCommand = Document.prototype.execCommand;
  const activeOf = Object.getOwnPropertyDescriptor(Document.prototype, "activeElement").get;
  const shadowActiveOf = Object.getOwnPropertyDescriptor(ShadowRoot.prototype, "activeElement").get;
  const selectionOf = Document.prototype.getSelection;
  const hasFocus = Document.prototype.hasFocus;
  const includes = Array.prototype.includes;
  const send = (operation, text) => call(TOKEN, operation, text);

  function focused() {
    let element = activeOf.call(document);
    while (element && element.shadowRoot) {
      const inner = shadowActiveOf.call(element.shadowRoot);
      if (!inner) break;
      element = inner;
    }
    return element;
  }

  function selectedText() {
    const element = focused();
    if (element instanceof HTMLInputElement && element.type === "password") return ""; // never copied, as in Chromium
    if (element && element.hasAttribute && element.hasAttribute("data-hive-secret")) return ""; // a secret Hive typed
    if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) {
      try {
        const start = element.selectionStart;
        const end = element.selectionEnd;
        if (start !== null && end !== null) return element.value.slice(start, end);
      } catch (e) {
        // email and number inputs have no selection API; the document's selection covers them
      }
    }
    return String(selectionOf.call(document) || "");
  }

  function onCopy(event) {
    if (!event.isTrusted) return; // a page's own synthetic event (or ours, below) changes no clipboard
    const selected = selectedText();
    prevent.call(event);
    stop.call(event);
    try {
      setData.call(event.clipboardData, "text/plain", ""); // what the shared clipboard receives
    } catch (e) {
      // no clipboardData: nothing reaches the shared clipboard either
    }
    const target = composedPath.call(event)[0] || event.target;
    const data = new DataTransferCtor();
    const init = { bubbles: true, cancelable: true, composed: true, clipboardData: data };
    const proceed = dispatch.call(target, new ClipboardEventCtor(event.type, init));
    if (!proceed) {
      // The page handled the copy: what it set is copied; nothing set leaves the clipboard as it was.
      if (includes.call(typesOf.call(data), "text/plain")) send("copy", getData.call(data, "text/plain"));
      return;
    }
    if (event.type === "cut" && selected) execCommand.call(document, "delete");
    send("copy", selected);
  }

  function onPaste(event) {
    if (!event.isTrusted) return;
    prevent.call(event);
    stop.call(event);
    const target = composedPath.call(event)[0] || event.target;
    send("paste").then((text) => {
      if (typeof text !== "string") return;
      const data = new DataTransferCtor();
      setData.call(data, "text/plain", text);
      const init = { bubbles: true, cancelable: true, composed: true, clipboardData: data };
      if (dispatch.call(target, new ClipboardEventCtor("paste", init)) && text) {
        execCommand.call(document, "insertText", false, text);
      }
    });
  }

  function guard() {
    for (const type of ["copy", "cut"]) listen.call(window, type, onCopy, true);
    listen.call(window, "paste", onPaste, true);
  }
  guard();

  // document.open() (and a write() into a finished document, which opens it) removes every listener of the
  // window: the guard puts its own back before the new content can add any.
  const open = Document.prototype.open;
  const readyStateOf = Object.getOwnPropertyDescriptor(Document.prototype, "readyState").get;
  Document.prototype.open = function (...args) {
    const result = open.apply(this, args);
    if (this === document) guard();
    return result;
  };
  for (const name of ["write", "writeln"]) {
    const original = Document.prototype[name];
    Document.prototype[name] = function (...args) {
      if (this === document && readyStateOf.call(this) !== "loading") Document.prototype.open.call(this);
      return original.apply(this, args);
    };
  }

  const clipboard = typeof Clipboard === "function" ? Clipboard.prototype : null;
  if (clipboard) {
    const refuse = () => Promise.reject(new DOMException("Document is not focused.", "NotAllowedError"));
    clipboard.writeText = function (text) {
      if (!hasFocus.call(document)) return refuse();
      return send("copy", String(text)).then(() => undefined);
    };
    clipboard.write = async function (items) {
      if (!hasFocus.call(document)) return refuse();
      for (const item of items || []) {
        if (includes.call(item.types, "text/plain")) {
          const blob = await item.getType("text/plain");
          await send("copy", await blob.text());
          return undefined;
        }
      }
      return undefined;
    };
  }
})();
