// Hive's WebMCP bridge, run in the main world of every document of a pooled context before the page's scripts.
//
// 1. Where the browser has no native `document.modelContext` (Chromium without --enable-features=WebMCP), it
//    installs a polyfill that behaves like Chromium's own implementation of the WebMCP draft (polyfill.js says
//    where Chromium differs from the draft, and what a polyfill cannot copy).
// 2. It serves pages written for the legacy `navigator.modelContext` API (registerTool / unregisterTool /
//    provideContext / clearContext, tools with `execute(input, client)`) by forwarding them into today's registry.
// 3. It gives Hive JSON in and out: `describe()` lists the tools of the document tree, `call()` runs a tool of the
//    polyfill and reports the tool's real error, `registerTool(tool, {source})` is the hook SKILL code uses so a
//    tool's source is recorded as data.
//
// Nothing here is secret and nothing can reach the server: the page sees the same API object Hive uses. The API
// lives under a Symbol key so scripts enumerating `window` never meet it. Built-ins are captured up front, so a
// page replacing JSON, Promise or the modelContext methods later does not change what Hive reads.
(() => {
  "use strict";
  const KEY = Symbol.for("hive.webmcp.v1");
  if (window[KEY]) return window[KEY];

  const { defineProperty, freeze, getOwnPropertyDescriptor, getPrototypeOf } = Object;
  const hasOwn = (obj, key) => Object.prototype.hasOwnProperty.call(obj, key);
  const apply = Reflect.apply;
  const jsonStringify = JSON.stringify;
  const jsonParse = JSON.parse;
  const isArray = Array.isArray;
  const warn = console.warn.bind(console);
  const NativeEvent = Event;
  const NativeEventTarget = EventTarget;
  const NativeDOMException = DOMException;
  const NativeAbortController = AbortController;
  const NativeAbortSignal = AbortSignal;
  const NativeSubmitEvent = typeof SubmitEvent === "function" ? SubmitEvent : NativeEvent;
  const NativeURL = URL;
  const formSubmit = HTMLFormElement.prototype.submit;
  const cssEscape = CSS.escape;
  const NativePromise = Promise;
  const NativeTextEncoder = TextEncoder;
  const setTimer = setTimeout;
  const clearTimer = clearTimeout;

  const NAME_RE = /^[A-Za-z0-9_.-]{1,128}$/;
  const SOURCE_RE = /^[A-Za-z0-9_.:-]{1,64}$/;
  const DESCRIBE_MAX_TOOLS = 256;
  const TEXT_MAX = 4000;
  const SCHEMA_MAX = 32768;
  // What one describe() may send the worker in all; tools past it are counted as dropped, not sent.
  const DESCRIBE_BUDGET = 1 << 20;
  const URL_MAX = 2048;

  // One task queue per document: a MessageChannel task runs after the current task and any event dispatch in
  // progress, without the clamping of setTimeout. WebMCP's "queue a global task" steps run here.
  const tasks = [];
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    const task = tasks.shift();
    if (task) task();
  };
  const queueTask = (fn) => {
    tasks.push(fn);
    channel.port2.postMessage(null);
  };

  const domError = (name, message) => new NativeDOMException(message, name);
  const isObject = (v) => v !== null && (typeof v === "object" || typeof v === "function");
  const cut = (s, n) => (s.length > n ? s.slice(0, n) : s);

  function errorText(err) {
    try {
      if (isObject(err) && typeof err.message === "string" && typeof err.name === "string") {
        return err.message ? `${err.name}: ${err.message}` : err.name;
      }
      if (isObject(err)) return jsonStringify(err) ?? String(err);
      return String(err);
    } catch {
      return "the tool failed with an error that cannot be shown";
    }
  }

  // What executeTool() hands back, as Chromium does it: objects as JSON (a function as "undefined"), anything else
  // as String(value), so "plain" stays plain, 10n is "10" and undefined is "undefined". An object JSON cannot
  // express (a BigInt inside, a cycle) fails the call. (Chromium 156 crashes the renderer on a Symbol; this fails.)
  function resultString(value) {
    if (value === null || (typeof value !== "object" && typeof value !== "function")) return String(value);
    const text = jsonStringify(value);
    return text === undefined ? "undefined" : text;
  }

  function sameOrigin(win) {
    try {
      return win.origin === window.origin && !!win[KEY];
    } catch {
      return false;
    }
  }

  // The documents of this tab, top first, in tree order (a cross-origin frame's same-origin children included).
  function treeWindows() {
    const out = [];
    const walk = (win) => {
      out.push(win);
      let count = 0;
      try {
        count = win.frames.length;
      } catch {
        return;
      }
      for (let i = 0; i < count; i++) walk(win.frames[i]);
    };
    walk(window.top);
    return out;
  }

  function framePath(win) {
    const path = [];
    let current = win;
    while (current !== current.parent) {
      const parent = current.parent;
      let index = -1;
      for (let i = 0; i < parent.frames.length; i++) {
        if (parent.frames[i] === current) {
          index = i;
          break;
        }
      }
      path.unshift(index);
      current = parent;
    }
    return path;
  }

  function windowAt(path) {
    let win = window.top;
    for (const index of path) {
      win = win.frames[index];
      if (!win) return null;
    }
    return win;
  }

  // Sources recorded through the Hive hook, by tool name; a tool registered any other way is the page's own.
  const sources = new Map();

  // ---------------------------------------------------------------------------------------------------------
  // The polyfill: a ModelContext per document, following Chromium's behaviour.
  // ---------------------------------------------------------------------------------------------------------

  const nativeDescriptor =
    typeof Document === "function" ? getOwnPropertyDescriptor(Document.prototype, "modelContext") : undefined;
  const native = !!nativeDescriptor;
  const secure = window.isSecureContext === true;
  let polyfill = null;

  // @include polyfill.js

  const modelContextGetter = native ? nativeDescriptor.get : null;
  const nativeProto = native ? getPrototypeOf(apply(modelContextGetter, document, [])) : null;
  const nativeRegister = native ? nativeProto.registerTool : null;
  const nativeGetTools = native ? nativeProto.getTools : null;

  function modelContext() {
    if (native) return apply(modelContextGetter, document, []);
    return polyfill ? polyfill.context : null;
  }

  function registerWith(tool, options) {
    const mc = modelContext();
    if (!mc) return NativePromise.reject(domError("NotSupportedError", "WebMCP needs a secure context"));
    if (native) return apply(nativeRegister, mc, [tool, options]);
    return mc.registerTool(tool, options);
  }

  // ---------------------------------------------------------------------------------------------------------
  // The legacy navigator.modelContext API (Chrome 146-151), forwarded into today's registry.
  // ---------------------------------------------------------------------------------------------------------

  function installLegacy() {
    const provided = new Map(); // name -> AbortController, from provideContext()
    const dynamic = new Map(); // name -> AbortController, from registerTool()
    const client = freeze({
      // Hive has no user in the page to hand over to: the callback runs at once, as if the user agreed.
      requestUserInteraction: async (callback) => callback(),
    });

    function add(tool, into) {
      if (!isObject(tool)) throw new TypeError("Failed to execute 'registerTool': parameter 1 is not an object.");
      const name = String(tool.name ?? "");
      if (provided.has(name) || dynamic.has(name)) throw domError("InvalidStateError", `Duplicate tool name: ${name}`);
      if (!NAME_RE.test(name)) throw domError("InvalidStateError", `Invalid tool name: ${name}`);
      if (!tool.description) throw domError("InvalidStateError", "Description is required");
      if (typeof tool.execute !== "function") throw new TypeError("The tool's execute is not a function");
      const execute = tool.execute;
      const forwarded = {
        name,
        description: String(tool.description),
        execute: (input) => apply(execute, tool, [input, client]),
      };
      if (tool.title !== undefined) forwarded.title = tool.title;
      if (tool.inputSchema !== undefined) forwarded.inputSchema = tool.inputSchema;
      if (tool.annotations !== undefined) forwarded.annotations = tool.annotations;
      const controller = new NativeAbortController();
      into.set(name, controller);
      NativePromise.resolve(registerWith(forwarded, { signal: controller.signal })).catch((err) => {
        if (into.get(name) === controller) into.delete(name);
        if (controller.signal.aborted) return;
        warn(`navigator.modelContext: tool ${name} was not registered: ${errorText(err)}`);
      });
    }

    function drop(map) {
      for (const controller of map.values()) controller.abort();
      map.clear();
    }

    const legacy = {
      registerTool(tool) {
        add(tool, dynamic);
      },
      unregisterTool(name) {
        const key = String(name);
        for (const map of [dynamic, provided]) {
          const controller = map.get(key);
          if (controller) {
            map.delete(key);
            controller.abort();
          }
        }
      },
      provideContext(context = {}) {
        drop(provided);
        const tools = isObject(context) && context.tools !== undefined ? context.tools : [];
        for (const tool of tools) add(tool, provided);
      },
      clearContext() {
        drop(provided);
        drop(dynamic);
      },
    };
    freeze(legacy);
    defineProperty(Navigator.prototype, "modelContext", {
      configurable: true,
      enumerable: true,
      get() {
        return legacy;
      },
    });
  }

  // ---------------------------------------------------------------------------------------------------------
  // Hive's side: describe the tree's tools, run a polyfilled tool, register a tool with a source.
  // ---------------------------------------------------------------------------------------------------------

  async function toolsOfTree() {
    const mc = modelContext();
    if (!mc) return [];
    return native ? apply(nativeGetTools, mc, []) : mc.getTools();
  }

  function formFor(win, name) {
    try {
      return win.document.querySelector(`form[toolname="${cssEscape(name)}"]`);
    } catch {
      return null;
    }
  }

  // The tab's tools as JSON, for the top document (same-origin frames included).
  async function describe() {
    const available = !!modelContext();
    const out = { native, available, tools: [], dropped: 0 };
    if (!available) return jsonStringify(out);
    let budget = DESCRIBE_BUDGET;
    for (const tool of await toolsOfTree()) {
      const win = tool.window;
      const schema = tool.inputSchema === undefined ? null : jsonStringify(tool.inputSchema);
      const size = (schema ? schema.length : 0) + Math.min(String(tool.description ?? "").length, TEXT_MAX) + 512;
      if (out.tools.length >= DESCRIBE_MAX_TOOLS || (schema && schema.length > SCHEMA_MAX) || size > budget) {
        out.dropped++;
        continue;
      }
      budget -= size;
      const bridge = sameOrigin(win) ? win[KEY] : null;
      const def = !native && bridge && bridge._polyfill ? bridge._polyfill.def(tool.name) : null;
      const form = native ? formFor(win, tool.name) : def && def.form;
      let frameURL = "", frameName = "";
      try {
        frameURL = cut(String(win.location.href), URL_MAX);
        frameName = cut(String(win.name), 200);
      } catch {
        frameURL = "";
      }
      const annotations = tool.annotations;
      out.tools.push({
        name: String(tool.name),
        title: cut(String(tool.title ?? ""), 200),
        description: cut(String(tool.description ?? ""), TEXT_MAX),
        inputSchema: schema === null ? null : jsonParse(schema),
        annotations: annotations ? {
          readOnlyHint: !!annotations.readOnlyHint,
          untrustedContentHint: !!annotations.untrustedContentHint,
          consequentialHint: !!annotations.consequentialHint,
        } : null,
        frame: { path: framePath(win), url: frameURL, name: frameName },
        source: bridge ? bridge._sourceOf(String(tool.name)) : "page",
        declarative: !!form,
        autosubmit: !!form && form.hasAttribute("toolautosubmit"),
      });
    }
    return jsonStringify(out);
  }

  // Run a polyfilled tool for Hive: the real error text comes back (executeTool() only says UnknownError), a
  // timeout aborts the tool's signal, and an oversized result is cut here before it crosses to the worker.
  async function call(path, name, inputJSON, timeoutMs, maxChars) {
    const target = windowAt(path);
    const owner = target && sameOrigin(target) ? target[KEY]._polyfill : null;
    if (!owner || !owner.has(name)) return jsonStringify({ status: "missing" });
    const run = owner.invoke(name, inputJSON, window.origin);
    let timer = null;
    const timedOut = new NativePromise((resolve) => {
      timer = apply(setTimer, window, [() => {
        resolve({ status: "timeout" });
        run.cancel();
      }, timeoutMs]);
    });
    const outcome = await NativePromise.race([run.done, timedOut]);
    apply(clearTimer, window, [timer]);
    if (outcome.status === "ok") {
      if (outcome.navigated) return jsonStringify({ status: "ok", navigated: true });
      const text = outcome.text;
      // Only a string longer than a third of the limit can be over it in UTF-8 bytes.
      const totalBytes = text.length * 3 > maxChars ? new NativeTextEncoder().encode(text).length : text.length;
      return jsonStringify({ status: "ok", text: cut(text, maxChars), totalBytes });
    }
    if (outcome.status === "unknown") return jsonStringify({ status: "missing" });
    return jsonStringify({ status: outcome.status, error: outcome.error ? cut(outcome.error, TEXT_MAX) : "" });
  }

  // The hook SKILL code registers its tools through: as document.modelContext.registerTool(), and the tool's
  // source is recorded. It is data for the Tool Inspector; the page could call this too, so it proves nothing.
  function registerTool(tool, options = {}) {
    const { source = "page", ...rest } = isObject(options) ? options : {};
    const name = isObject(tool) ? String(tool.name) : "";
    const claimed = typeof source === "string" && SOURCE_RE.test(source) ? source : "page";
    const signal = rest.signal;
    return NativePromise.resolve(registerWith(tool, rest)).then(() => {
      if (claimed !== "page" && !(signal && signal.aborted)) {
        sources.set(name, claimed);
        if (signal) signal.addEventListener("abort", () => sources.delete(name), { once: true });
      }
    });
  }

  if (secure) {
    if (!native) polyfill = installPolyfill();
    if (!("modelContext" in Navigator.prototype)) installLegacy();
  }

  // In polyfill mode the top document tells Hive about changes through the binding the worker exposes; with
  // native WebMCP the worker hears the browser's own CDP events instead.
  if (polyfill && window === window.top) {
    polyfill.context.addEventListener("toolchange", () => {
      const notify = window.__hiveWebmcpChanged;
      if (typeof notify === "function") NativePromise.resolve(notify()).catch(() => {});
    });
  }

  const api = freeze({
    version: 1,
    native,
    available: () => !!modelContext(),
    describe,
    call,
    registerTool,
    _polyfill: polyfill,
    _sourceOf: (name) => sources.get(name) ?? "page",
  });
  defineProperty(window, KEY, { value: api, enumerable: false, configurable: false, writable: false });
  return api;
})();
