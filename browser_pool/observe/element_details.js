// The details layer of the page model (seed 004's ElementDetails): a unique CSS selector, an XPath, the frames
// and shadow hosts around an element. bridge.py splices it into page_model.js at its include marker,
// so it shares the model's helpers (scan, lookup, describe ...).

  function cssString(s) { return '"' + s.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\a ") + '"'; }

  // A CSS selector that matches exactly this element in its root (document or shadow root), checked with
  // querySelectorAll; the shortest of an id, a distinctive attribute, or a path of nth-of-type steps.
  function uniqueSelector(el) {
    const root = el.getRootNode();
    const unique = (sel) => {
      try { const m = root.querySelectorAll(sel); return m.length === 1 && m[0] === el; } catch (e) { return false; }
    };
    const tag = CSS.escape(el.localName);
    if (el.id && unique("#" + CSS.escape(el.id))) return "#" + CSS.escape(el.id);
    for (const attr of ["data-testid", "data-test", "name", "aria-label", "placeholder", "title", "alt"]) {
      const v = el.getAttribute(attr);
      if (v && v.length < 80) { const sel = tag + "[" + attr + "=" + cssString(v) + "]"; if (unique(sel)) return sel; }
    }
    const steps = [];
    for (let cur = el; cur && cur.nodeType === Node.ELEMENT_NODE; cur = cur.parentElement) {
      if (cur !== el && cur.id && root.querySelectorAll("#" + CSS.escape(cur.id)).length === 1) {
        // Anchor the path at the nearest ancestor with an id of its own.
        const sel = ["#" + CSS.escape(cur.id), ...steps].join(" > ");
        if (unique(sel)) return sel;
      }
      let step = CSS.escape(cur.localName);
      const parent = cur.parentElement;
      if (parent) {
        const same = Array.from(parent.children).filter((c) => c.localName === cur.localName);
        if (same.length > 1) step += ":nth-of-type(" + (same.indexOf(cur) + 1) + ")";
      }
      steps.unshift(step);
      const sel = steps.join(" > ");
      if (unique(sel)) return sel;
    }
    return steps.join(" > ");
  }

  function xpathOf(el) {
    if (el.getRootNode() !== el.ownerDocument) return "";  // XPath cannot reach into a shadow root
    const steps = [];
    for (let cur = el; cur && cur.nodeType === Node.ELEMENT_NODE; cur = cur.parentElement) {
      const html = cur.namespaceURI === "http://www.w3.org/1999/xhtml";
      const name = html ? cur.localName : "*[local-name()='" + cur.localName + "']";
      const parent = cur.parentElement;
      let step = name;
      if (parent) {
        const same = Array.from(parent.children).filter((c) => c.localName === cur.localName);
        if (same.length > 1) step += "[" + (same.indexOf(cur) + 1) + "]";
      }
      steps.unshift(step);
    }
    return "/" + steps.join("/");
  }

  function hostChain(el) {
    const frames = [], hosts = [];
    for (let doc = el.ownerDocument; doc !== document; doc = doc.defaultView.frameElement.ownerDocument) {
      frames.unshift(uniqueSelector(doc.defaultView.frameElement));
    }
    for (let root = el.getRootNode(); root instanceof ShadowRoot; root = root.host.getRootNode()) {
      hosts.unshift(uniqueSelector(root.host));
    }
    return { frames, hosts };
  }

  function details(opts) {
    setBase(opts.base);
    const found = scan(false);
    const byIndex = new Map(found.records.map((rec) => [rec.index, rec]));
    return opts.indices.map((index) => {
      const hit = lookup(index);
      if (hit.status !== "ok") return { index, status: hit.status };
      const el = hit.el;
      const rec = byIndex.get(index) || { el, index, kind: kindOf(el) || "other", inView: false, frame: null,
        rect: [0, 0, 0, 0] };
      const info = describe(rec, false, deepActiveElement(), true);
      const attributes = {};
      for (const a of el.attributes) attributes[a.name] = cut(a.value, ATTR_MAX);
      const parent = parentOf(el);
      const { frames, hosts } = hostChain(el);
      const selector = uniqueSelector(el);
      let matches = 0;
      try { matches = el.getRootNode().querySelectorAll(selector).length; } catch (e) { matches = 0; }
      return {
        ...info, status: "ok", rendered: byIndex.has(index), attributes, selector, selector_unique: matches === 1,
        xpath: xpathOf(el), parent_text: parent ? cut(shortText(parent), PARENT_TEXT_MAX) : "",
        child_count: el.children.length, frames, shadow_hosts: hosts,
      };
    });
  }
