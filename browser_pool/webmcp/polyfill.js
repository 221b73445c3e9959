  // The WebMCP polyfill, included into bridge.js (inside its closure) by browser_pool/webmcp/bridge.py: a
  // ModelContext per document, imperative and declarative tools, that behaves like Chromium 156's implementation.
  //
  // Where Chromium differs from the CG draft, this follows Chromium (checked side by side in
  // tests/browser_pool/webmcp/test_model_context.py):
  // - executeTool() resolves strings as they are (not JSON-quoted) and other primitives as String(value)
  //   ("undefined", "NaN", "10" for 10n); only objects are JSON. (A Symbol result crashes Chromium's renderer.)
  // - A declarative tool is filled and, with toolautosubmit, submitted without constraint validation; the page
  //   answers through SubmitEvent.agentInvoked / respondWith(); toolactivated comes after that submit event.
  // What a script cannot copy: events are not isTrusted; no :tool-form-active / :tool-submit-active; tools of
  // cross-origin frames (exposedTo) stay invisible; the "tools" permissions policy is not enforced; unnamed form
  // controls are left out (Chromium lists them under the property name "").
  function installPolyfill() {
    const ILLEGAL = Symbol("construct");
    const internals = new WeakMap();
    const toolMap = new Map(); // name -> definition
    const pending = new Map(); // invocation id -> {controller, name, settle, form?}
    let nextInvocation = 1;
    const TOOL_FAILED = "Tool was executed but the invocation failed. For example, the script function threw an error";
    const failed = (method, detail) => new TypeError(`Failed to execute '${method}' on 'ModelContext': ${detail}`);
    const badMember = (method, dictionary, member, detail) =>
      failed(method, `Failed to read the '${member}' property from '${dictionary}': ${detail}`);

    class ToolActivatedEvent extends NativeEvent {
      #toolName;
      constructor(type, init = {}) {
        super(type, init);
        this.#toolName = init.toolName === undefined ? "" : String(init.toolName);
      }
      get toolName() {
        return this.#toolName;
      }
    }
    class ToolCancelEvent extends NativeEvent {
      #toolName;
      constructor(type, init = {}) {
        super(type, init);
        this.#toolName = init.toolName === undefined ? "" : String(init.toolName);
      }
      get toolName() {
        return this.#toolName;
      }
    }

    class ModelContext extends NativeEventTarget {
      constructor(token) {
        if (token !== ILLEGAL) throw new TypeError("Illegal constructor");
        super();
        internals.set(this, { handlers: {} });
      }

      async registerTool(tool, options = {}) {
        brand(this, "registerTool");
        const def = toolDefinition(tool);
        const opts = registerOptions(options);
        if (toolMap.has(def.name)) throw domError("InvalidStateError", "Duplicate tool name");
        if (!NAME_RE.test(def.name)) throw domError("InvalidStateError", "Invalid tool name");
        if (def.description === "") throw domError("InvalidStateError", "Description is required");
        if (def.inputSchemaObject !== undefined) {
          let text;
          try {
            text = jsonStringify(def.inputSchemaObject);
          } catch (err) {
            if (err instanceof TypeError) throw failed("registerTool", err.message);
            throw err;
          }
          if (text === undefined) throw failed("registerTool", "inputSchema is not JSON");
          def.inputSchema = text;
        }
        delete def.inputSchemaObject;
        if (opts.signal && opts.signal.aborted) throw opts.signal.reason;
        def.exposedOrigins = exposedOrigins(opts.exposedTo);
        return new NativePromise((resolve, reject) => {
          toolMap.set(def.name, def);
          if (opts.signal) {
            opts.signal.addEventListener(
              "abort",
              () => {
                if (toolMap.get(def.name) === def) unregister(def.name);
                reject(opts.signal.reason);
              },
              { once: true },
            );
          }
          queueTask(() => {
            notifyChange();
            resolve(undefined);
          });
        });
      }

      async getTools() {
        brand(this, "getTools");
        const tools = [];
        for (const win of treeWindows()) {
          if (!sameOrigin(win)) continue;
          const owner = win[KEY]._polyfill;
          if (!owner) continue;
          for (const def of owner.defs()) tools.push(registeredTool(def, win));
        }
        tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        return tools;
      }

      async executeTool(tool, inputObject, options = {}) {
        brand(this, "executeTool");
        if (!isObject(tool)) throw failed("executeTool", "parameter 1 is not an object.");
        for (const member of ["name", "description", "window", "origin"]) {
          if (tool[member] === undefined) {
            throw badMember("executeTool", "RegisteredTool", member, "Required member is undefined.");
          }
        }
        const name = String(tool.name);
        if (arguments.length < 2 || inputObject === undefined) inputObject = {};
        if (!isObject(inputObject)) {
          throw failed("executeTool", "invalid input object: value is not an object");
        }
        const signal = options && options.signal;
        if (signal !== undefined && !(signal instanceof NativeAbortSignal)) {
          throw failed("executeTool", "member signal is not of type AbortSignal.");
        }
        const inputJSON = jsonStringify(inputObject);
        if (signal && signal.aborted) throw signal.reason;
        const target = tool.window;
        const unknown = () =>
          domError("UnknownError", "The operation failed for an unknown transient reason (e.g. out of memory).");
        let owner = null;
        try {
          if (target.top === window.top && target.origin === String(tool.origin)) owner = target[KEY]._polyfill;
        } catch {
          owner = null;
        }
        if (!owner) throw unknown();
        const run = owner.invoke(name, inputJSON, window.origin);
        return new NativePromise((resolve, reject) => {
          if (signal) {
            signal.addEventListener(
              "abort",
              () => {
                reject(signal.reason);
                run.cancel();
              },
              { once: true },
            );
          }
          run.done.then((outcome) => {
            if (outcome.status === "ok") resolve(outcome.navigated ? null : outcome.text);
            else if (outcome.status === "unknown") reject(unknown());
            else if (outcome.status === "error") reject(domError("UnknownError", outcome.publicMessage));
          });
        });
      }
    }
    // Event handler attributes: setting one replaces the previous handler; reading gives back the function set.
    for (const type of ["toolchange", "toolactivated", "toolcancel"]) {
      defineProperty(ModelContext.prototype, `on${type}`, {
        configurable: true,
        enumerable: true,
        get() {
          const entry = internals.get(this)?.handlers[type];
          return entry ? entry.fn : null;
        },
        set(fn) {
          const state = internals.get(this);
          if (!state) throw new TypeError("Illegal invocation");
          if (state.handlers[type]) this.removeEventListener(type, state.handlers[type].listener);
          state.handlers[type] = null;
          if (typeof fn !== "function") return;
          const listener = (event) => apply(fn, this, [event]);
          state.handlers[type] = { fn, listener };
          this.addEventListener(type, listener);
        },
      });
    }

    function brand(obj, method) {
      if (!internals.has(obj)) throw failed(method, "Illegal invocation");
    }

    function toolDefinition(tool) {
      if (!isObject(tool)) throw failed("registerTool", "parameter 1 is not of type 'ModelContextTool'.");
      const bad = (member, detail) => badMember("registerTool", "ModelContextTool", member, detail);
      // WebIDL reads dictionary members in lexicographic order; so does this.
      const annotations = tool.annotations;
      const description = tool.description;
      const execute = tool.execute;
      const inputSchema = tool.inputSchema;
      const name = tool.name;
      const title = tool.title;
      const required = (member) => bad(member, "Required member is undefined.");
      if (annotations !== undefined && annotations !== null && !isObject(annotations)) {
        throw bad("annotations", "The provided value is not of type 'ToolAnnotations'.");
      }
      if (description === undefined) throw required("description");
      if (execute === undefined) throw required("execute");
      if (typeof execute !== "function") {
        throw bad("execute", "The provided value is not a function.");
      }
      if (inputSchema !== undefined && !isObject(inputSchema)) {
        throw bad("inputSchema", "Failed to convert value to 'object'.");
      }
      if (name === undefined) throw required("name");
      return {
        name: String(name),
        title: title === undefined ? "" : String(title),
        description: String(description),
        inputSchemaObject: inputSchema,
        inputSchema: "",
        annotations: annotations === undefined || annotations === null ? null : {
          consequentialHint: !!annotations.consequentialHint,
          debugging: !!annotations.debugging,
          readOnlyHint: !!annotations.readOnlyHint,
          untrustedContentHint: !!annotations.untrustedContentHint,
        },
        execute,
        form: null,
        autosubmit: false,
        exposedOrigins: [],
      };
    }

    function registerOptions(options) {
      if (options === undefined || options === null) return {};
      const dictionary = "ModelContextRegisterToolOptions";
      if (!isObject(options)) throw failed("registerTool", `parameter 2 is not of type '${dictionary}'.`);
      const { exposedTo, signal } = options;
      if (signal !== undefined && !(signal instanceof NativeAbortSignal)) {
        throw badMember("registerTool", dictionary, "signal", "Failed to convert value to 'AbortSignal'.");
      }
      return { exposedTo, signal };
    }

    function exposedOrigins(list) {
      if (list === undefined) return [];
      const origins = [];
      for (const entry of list) {
        let url = null;
        try {
          url = new NativeURL(String(entry));
        } catch {
          url = null;
        }
        const host = url ? url.hostname : "";
        const trustworthy = url && (url.protocol === "https:" || url.protocol === "wss:" ||
          host === "localhost" || host.endsWith(".localhost") || /^127\./.test(host) || host === "[::1]");
        if (!trustworthy) throw domError("SecurityError", "Only secure origins are allowed in the exposedTo list.");
        origins.push(url.origin);
      }
      return origins;
    }

    function registeredTool(def, win) {
      const out = {};
      if (def.annotations) out.annotations = { ...def.annotations };
      out.description = def.description;
      if (def.inputSchema !== "") out.inputSchema = jsonParse(def.inputSchema);
      out.name = def.name;
      out.origin = win.origin;
      out.title = def.title;
      out.window = win;
      return out;
    }

    function unregister(name) {
      if (!toolMap.delete(name)) return;
      sources.delete(name);
      queueTask(notifyChange);
    }

    // Every same-origin document of the tab hears about a change, the top first, like Chromium.
    function notifyChange() {
      for (const win of treeWindows()) {
        if (!sameOrigin(win)) continue;
        const owner = win[KEY]._polyfill;
        if (owner) owner.fire("toolchange", null);
      }
    }

    const context = new ModelContext(ILLEGAL);

    function fire(type, toolName) {
      const event = type === "toolactivated" ? new ToolActivatedEvent(type, { toolName })
        : type === "toolcancel" ? new ToolCancelEvent(type, { toolName }) : new NativeEvent(type);
      context.dispatchEvent(event);
    }

    // Run a tool of this document for a caller: the draft's "tool execute steps" in a task of this document.
    // `done` settles with {status: "ok", text} | {status: "error", error, publicMessage} | {status: "unknown"}
    // | {status: "cancelled"}; `cancel()` aborts the tool's signal and fires toolcancel.
    function invoke(name, inputJSON, callerOrigin) {
      let settle;
      const done = new NativePromise((resolve) => (settle = resolve));
      const id = nextInvocation++;
      let cancelled = false;
      queueTask(() => {
        if (cancelled) return;
        const def = toolMap.get(name);
        if (!def || (callerOrigin !== window.origin && !def.exposedOrigins.includes(callerOrigin))) {
          settle({ status: "unknown", error: `no tool named "${name}" is registered in this document` });
          return;
        }
        let input;
        try {
          input = jsonParse(inputJSON);
        } catch {
          input = undefined;
        }
        if (!isObject(input)) {
          const error = "the tool input is not a JSON object";
          settle({ status: "error", error, publicMessage: "Failed to parse input arguments" });
          return;
        }
        const controller = new NativeAbortController();
        pending.set(id, { controller, name, settle, form: def.form });
        if (def.form) {
          runDeclarative(def, input, id);
          return;
        }
        fire("toolactivated", name);
        let result;
        try {
          result = apply(def.execute, undefined, [input, { signal: controller.signal }]);
        } catch (err) {
          result = NativePromise.reject(err);
        }
        NativePromise.resolve(result).then(
          (value) => finish(id, value),
          (err) => fail(id, err),
        );
      });
      const cancel = () => {
        cancelled = true;
        const entry = pending.get(id);
        if (!entry) return;
        pending.delete(id);
        entry.controller.abort();
        fire("toolcancel", entry.name);
        entry.settle({ status: "cancelled" });
      };
      return { done, cancel };
    }

    function finish(id, value, navigated = false) {
      const entry = pending.get(id);
      if (!entry) return;
      pending.delete(id);
      let text;
      try {
        text = resultString(value);
      } catch (err) {
        warn(`WebMCP tool execution failed: Uncaught ${errorText(err)}`);
        const error = `the tool's result cannot be sent as JSON: ${errorText(err)}`;
        entry.settle({ status: "error", error, publicMessage: TOOL_FAILED });
        return;
      }
      entry.settle({ status: "ok", text, navigated });
    }

    function fail(id, err, publicMessage = TOOL_FAILED) {
      const entry = pending.get(id);
      if (!entry) return;
      pending.delete(id);
      if (publicMessage === TOOL_FAILED) warn(`WebMCP tool execution failed: Uncaught ${errorText(err)}`);
      entry.settle({ status: "error", error: errorText(err), publicMessage });
    }

    // @include forms.js

    defineProperty(Document.prototype, "modelContext", {
      configurable: true,
      enumerable: true,
      get() {
        return this === document ? context : undefined;
      },
    });
    const interfaces = { ModelContext, ToolActivatedEvent, ToolCancelEvent };
    for (const [name, value] of Object.entries(interfaces)) {
      defineProperty(window, name, { value, configurable: true, writable: true, enumerable: false });
    }

    return freeze({
      context,
      defs: () => [...toolMap.values()],
      has: (name) => toolMap.has(name),
      def: (name) => toolMap.get(name),
      invoke,
      fire,
    });
  }
