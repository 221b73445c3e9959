// The details layer of the page model (ElementDetails in types.py): a unique CSS selector, an XPath, the frames
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

  // What one character of a value takes once quoted as JSON, as the model reads it: an escaped quote, backslash or
  // line break two, another control character six.
  function quotedSize(ch) {
    if (ch === '"' || ch === "\\") return 2;
    const code = ch.codePointAt(0);
    if (code < 0x20) return code === 8 || code === 9 || code === 10 || code === 12 || code === 13 ? 2 : 6;
    return code >= 0xd800 && code <= 0xdfff ? 6 : 1;  // a lone surrogate is escaped
  }

  // The part of `value` from code point `from` (1-based) that fits `room` characters as the model reads it.
  function valuePart(value, from, room) {
    const points = Array.from(value);
    const start = Math.min(from, points.length + 1) - 1;
    let end = start, size = 0;
    while (end < points.length && size + quotedSize(points[end]) <= room) size += quotedSize(points[end++]);
    return { text: points.slice(start, end).join(""), start, end, length: points.length, size };
  }

  // A field's value in details: whole while the call's values fit `opts.valueChars` characters (shared in the
  // order asked; a value no longer than a list line shows is always whole), else the part that fits, saying which
  // characters it holds and how to read the next part.
  function pageValue(info, opts, room) {
    const part = valuePart(info.value, opts.valueFrom, Math.max(room, VALUE_MAX * 6));
    if (part.start === 0 && part.end === part.length) return part.size;
    info.value = part.text;
    info.value_length = part.length;
    const next = "get_element_details with indices [" + info.index + "] and value_from " + (part.end + 1);
    if (part.end === part.start) {
      info.value_part = part.start >= part.length
        ? "nothing from character " + (part.start + 1) + " on: the value has " + part.length + " characters"
        : "none of its characters in this answer (the values before it filled it); read them with " + next;
    } else {
      info.value_part = "characters " + (part.start + 1) + "–" + part.end + " of " + part.length +
        (part.end < part.length ? "; the next part: " + next : " (the end)");
    }
    return part.size;
  }

  function details(opts) {
    setBase(opts.base);
    const found = scan(false);
    const byIndex = new Map(found.records.map((rec) => [rec.index, rec]));
    let room = opts.valueChars;
    return opts.indices.map((index) => {
      const hit = lookup(index);
      if (hit.status !== "ok") return { index, status: hit.status };
      const el = hit.el;
      const rec = byIndex.get(index) || { el, index, kind: kindOf(el) || "other", inView: false, frame: null,
        rect: [0, 0, 0, 0] };
      const info = describe(rec, false, deepActiveElement(), true, null);
      if (info.value) room -= pageValue(info, opts, room);
      const attributes = {};
      for (const a of el.attributes) attributes[a.name] = cut(a.value, ATTR_MAX);
      // The value attribute a password field was given is as secret as what was typed into it.
      const secret = (el.localName === "input" && el.type === "password") || el.hasAttribute("data-hive-secret");
      if (secret && attributes.value) attributes.value = "•••";
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
