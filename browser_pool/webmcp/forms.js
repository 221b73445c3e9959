    // Declarative WebMCP for the polyfill, included into polyfill.js (inside installPolyfill's closure) by
    // browser_pool/webmcp/bridge.py: tools from <form toolname tooldescription [toolautosubmit]>, with the input
    // schema Chromium synthesises, filled and submitted the way Chromium does it.
    // ----- declarative tools: <form toolname tooldescription [toolautosubmit]> -----

    const declarative = new Map(); // name -> definition of a form tool
    const agentSubmits = new WeakMap(); // SubmitEvent -> invocation id, for submits this polyfill dispatches
    const waitingForms = new Map(); // form -> invocation id, for forms filled and waiting for the user to submit

    function labelText(control) {
      const own = control.getAttribute("toolparamdescription");
      if (own) return own.trim();
      const labels = control.labels ? [...control.labels] : [];
      const text = labels
        .map((label) => {
          const clone = label.cloneNode(true);
          for (const inner of clone.querySelectorAll("input,select,textarea,button")) inner.remove();
          return clone.textContent.replace(/\s+/g, " ").trim();
        })
        .filter(Boolean)
        .join(" ");
      return text;
    }

    const SKIPPED_TYPES = new Set(["hidden", "file", "submit", "button", "reset", "image"]);
    const TIME_FORMATS = {
      color: "^#[0-9a-zA-Z]{6}$",
      time: "^([01][0-9]|2[0-3]):[0-5][0-9]$",
      "datetime-local": "^[0-9]{4}-(0[1-9]|1[0-2])-[0-9]{2}T([01][0-9]|2[0-3]):[0-5][0-9]$",
    };

    function fieldControls(form) {
      const out = [];
      for (const el of form.elements) {
        const tag = el.tagName;
        if (tag !== "INPUT" && tag !== "SELECT" && tag !== "TEXTAREA") continue;
        if (el.disabled || !el.name) continue;
        if (tag === "INPUT" && SKIPPED_TYPES.has(el.type)) continue;
        out.push(el);
      }
      return out;
    }

    function choice(value, title) {
      const entry = { type: "string", const: value };
      if (title !== undefined) entry.title = title;
      return entry;
    }

    // The JSON Schema Chromium synthesises for a tool form, property by property.
    function formSchema(form) {
      const properties = {};
      const required = [];
      const groups = new Map();
      const controls = fieldControls(form);
      for (const el of controls) {
        if (el.type === "radio" || el.type === "checkbox") {
          if (!groups.has(el.name)) groups.set(el.name, []);
          groups.get(el.name).push(el);
        }
      }
      for (const el of controls) {
        const name = el.name;
        if (el.required && !required.includes(name)) required.push(name);
        if (hasOwn(properties, name)) continue;
        let prop;
        if (el.tagName === "SELECT") {
          const options = [...el.options].filter((o) => !o.disabled);
          const values = options.map((o) => o.value);
          const item = { type: "string", anyOf: options.map((o) => choice(o.value, o.label)), enum: values };
          prop = el.multiple ? { type: "array", items: item, uniqueItems: true } : item;
        } else if (el.type === "radio") {
          const values = groups.get(name).map((r) => r.value);
          prop = { type: "string", anyOf: values.map((v) => choice(v)), enum: values };
        } else if (el.type === "checkbox") {
          const boxes = groups.get(name);
          if (boxes.length === 1) {
            prop = { type: "boolean" };
          } else {
            const values = boxes.map((c) => c.value);
            const items = { type: "string", anyOf: values.map((v) => choice(v)), enum: values };
            prop = { type: "array", items, uniqueItems: true };
          }
        } else if (el.type === "number" || el.type === "range") {
          prop = { type: "number" };
          const min = el.getAttribute("min"), max = el.getAttribute("max"), step = el.getAttribute("step");
          if (min !== null && min !== "" && !Number.isNaN(Number(min))) prop.minimum = Number(min);
          else if (el.type === "range") prop.minimum = 0;
          if (max !== null && max !== "" && !Number.isNaN(Number(max))) prop.maximum = Number(max);
          else if (el.type === "range") prop.maximum = 100;
          if (step === null || step === "" || Number.isNaN(Number(step))) prop.multipleOf = 1;
          else if (step.toLowerCase() !== "any" && Number(step) > 0) prop.multipleOf = Number(step);
        } else if (el.type === "date") {
          prop = { type: "string", format: "date", description: "Dates MUST be provided in 'YYYY-MM-DD' format." };
        } else if (hasOwn(TIME_FORMATS, el.type)) {
          prop = { type: "string", format: TIME_FORMATS[el.type] };
        } else {
          prop = { type: "string" };
          const pattern = el.getAttribute("pattern");
          if (pattern) prop.pattern = pattern;
        }
        if (el.type !== "radio" && el.type !== "checkbox") {
          const text = labelText(el);
          if (text) prop.description = text;
        }
        properties[name] = prop;
      }
      return { type: "object", properties, required };
    }

    function formDefinition(form) {
      const name = form.getAttribute("toolname");
      const description = form.getAttribute("tooldescription");
      if (!name || !NAME_RE.test(name) || !description) return null;
      return {
        name,
        title: "",
        description,
        inputSchema: jsonStringify(formSchema(form)),
        annotations: null,
        execute: null,
        form,
        autosubmit: form.hasAttribute("toolautosubmit"),
        exposedOrigins: [],
      };
    }

    let rescanQueued = false;
    function rescanForms() {
      rescanQueued = false;
      const wanted = new Map();
      for (const form of document.querySelectorAll("form[toolname]")) {
        const def = formDefinition(form);
        if (def && !wanted.has(def.name)) wanted.set(def.name, def);
      }
      let changed = false;
      for (const [name, def] of declarative) {
        const next = wanted.get(name);
        if (next && next.form === def.form && next.description === def.description &&
            next.inputSchema === def.inputSchema && next.autosubmit === def.autosubmit) {
          wanted.delete(name);
          continue;
        }
        declarative.delete(name);
        if (toolMap.get(name) === def) {
          toolMap.delete(name);
          changed = true;
        }
      }
      for (const [name, def] of wanted) {
        if (toolMap.has(name)) continue; // an imperative tool holds the name
        declarative.set(name, def);
        toolMap.set(name, def);
        changed = true;
      }
      if (changed) notifyChange();
    }
    const scheduleRescan = () => {
      if (rescanQueued) return;
      rescanQueued = true;
      queueTask(rescanForms);
    };
    new MutationObserver(scheduleRescan).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ["toolname", "tooldescription", "toolautosubmit", "toolparamdescription", "name", "type",
        "required", "min", "max", "step", "pattern", "disabled", "multiple", "value", "for", "id", "label"],
    });
    if (document.readyState !== "loading") scheduleRescan();
    else document.addEventListener("DOMContentLoaded", scheduleRescan, { once: true });

    // What filling `controls` with `value` means, checked before anything is touched (Chromium rejects a call with
    // one bad value without filling any field). Returns a function that fills them.
    function planControl(controls, key, value) {
      const first = controls[0];
      const bad = () => {
        throw new Error(`Invalid value ${jsonStringify(value) ?? String(value)} for parameter ${key}`);
      };
      if (first.type === "checkbox" && controls.length === 1) {
        if (typeof value !== "boolean") bad();
        return () => [setChecked(first, value)];
      }
      if (first.type === "checkbox") {
        if (!isArray(value)) bad();
        return () => controls.map((box) => setChecked(box, value.includes(box.value)));
      }
      if (first.type === "radio") {
        const match = controls.find((r) => r.value === String(value));
        if (!match) bad();
        return () => [setChecked(match, true)];
      }
      if (first.tagName === "SELECT" && first.multiple) {
        if (!isArray(value)) bad();
        const wanted = value.map(String);
        return () => {
          for (const option of first.options) option.selected = wanted.includes(option.value);
          return [first];
        };
      }
      if (first.tagName === "SELECT") {
        const match = [...first.options].find((o) => o.value === String(value));
        if (!match) bad();
        return () => [setValue(first, match.value)];
      }
      if (first.type === "number" || first.type === "range") {
        const numeric = typeof value === "number" ||
          (typeof value === "string" && value.trim() !== "" && !Number.isNaN(Number(value)));
        if (!numeric) bad();
        return () => [setValue(first, String(value))];
      }
      if (isObject(value)) bad();
      return () => [setValue(first, String(value))];
    }

    function setChecked(el, checked) {
      el.checked = checked;
      return el;
    }

    function setValue(el, value) {
      el.value = value;
      return el;
    }

    function hasSubmitButton(form) {
      for (const el of form.elements) {
        if (el.tagName === "BUTTON" && el.type === "submit") return true;
        if (el.tagName === "INPUT" && (el.type === "submit" || el.type === "image")) return true;
      }
      return false;
    }

    function runDeclarative(def, input, id) {
      const form = def.form;
      try {
        if (!form.isConnected) throw new Error("the tool's form is no longer in the page");
        if (!def.autosubmit && !hasSubmitButton(form)) {
          throw new Error(
            "No submit button was found, but for a form without `toolautosubmit`, there must be a submit button");
        }
        const byName = new Map();
        for (const el of fieldControls(form)) {
          if (!byName.has(el.name)) byName.set(el.name, []);
          byName.get(el.name).push(el);
        }
        const fills = [];
        for (const [key, controls] of byName) {
          if (hasOwn(input, key)) fills.push(planControl(controls, key, input[key]));
        }
        for (const fill of fills) {
          for (const el of fill()) {
            el.dispatchEvent(new NativeEvent("input", { bubbles: true, composed: true }));
            el.dispatchEvent(new NativeEvent("change", { bubbles: true }));
          }
        }
      } catch (err) {
        fail(id, err, err && err.message ? err.message : TOOL_FAILED);
        return;
      }
      if (!def.autosubmit) {
        fire("toolactivated", def.name);
        waitingForms.set(form, id);
        return;
      }
      // Chromium submits first and reports the activation after the submit event.
      const event = new NativeSubmitEvent("submit", { bubbles: true, cancelable: true, submitter: null });
      agentSubmits.set(event, id);
      const handled = decorate(event, id);
      form.dispatchEvent(event);
      fire("toolactivated", def.name);
      afterSubmit(event, handled, form, id, true);
    }

    // A submit of a form an agent is running gets `agentInvoked` and `respondWith()`, as in Chromium.
    function decorate(event, id) {
      const handled = { responded: false };
      defineProperty(event, "agentInvoked", { value: true, configurable: true });
      defineProperty(event, "respondWith", {
        configurable: true,
        value: (response) => {
          if (handled.responded) throw domError("InvalidStateError", "respondWith() was already called");
          handled.responded = true;
          NativePromise.resolve(response).then(
            (value) => finish(id, value),
            (err) => fail(id, err),
          );
        },
      });
      return handled;
    }

    function afterSubmit(event, handled, form, id, dispatchedHere) {
      if (handled.responded) return;
      if (event.defaultPrevented) {
        const shown = "The site has a programming error: it called preventDefault() on the 'submit' event, " +
          "without also calling respondWith() with the tool result";
        fail(id, new Error("the page stopped the form's submission without answering the tool call"), shown);
        return;
      }
      // The form navigates: the call ends with no result, like executeTool() resolving null.
      finish(id, null, true);
      if (dispatchedHere) apply(formSubmit, form, []);
    }

    defineProperty(NativeSubmitEvent.prototype, "agentInvoked", { configurable: true, get: () => false });
    defineProperty(NativeSubmitEvent.prototype, "respondWith", {
      configurable: true,
      writable: true,
      value() {
        throw domError("InvalidStateError", "respondWith() can only be called on a submit event an agent invoked");
      },
    });
    window.addEventListener(
      "submit",
      (event) => {
        const form = event.target;
        if (agentSubmits.has(event) || !waitingForms.has(form)) return;
        const id = waitingForms.get(form);
        waitingForms.delete(form);
        if (!pending.has(id)) return;
        const handled = decorate(event, id);
        queueTask(() => afterSubmit(event, handled, form, id, false));
      },
      true,
    );
