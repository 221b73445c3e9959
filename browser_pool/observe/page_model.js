// Hive's in-page model of the interactive elements of a page: finds them (open shadow roots and same-origin
// iframes included), gives each a stable index, describes them compactly, and resolves an index back to its
// element for the actions. Evaluated as an expression; the value is the API object, installed once per
// document under a Symbol key so page scripts enumerating `window` never see it.
(() => {
  const KEY = Symbol.for("hive.pageModel.v1");
  if (window[KEY]) return window[KEY];

  const INTERACTIVE = [
    "a[href]", "button", "input:not([type=hidden])", "select", "textarea", "summary", "img",
    "[role]", "[contenteditable]:not([contenteditable=false])", "[onclick]", "[draggable=true]",
    "[tabindex]:not([tabindex='-1'])",
  ].join(",");
  const DIALOGS = "dialog[open],[role=dialog],[role=alertdialog],[aria-modal=true]";
  const ROLE_KIND = {
    button: "button", tab: "button", menuitem: "button", menuitemcheckbox: "button", menuitemradio: "button",
    option: "button", switch: "button", treeitem: "button", link: "link", checkbox: "input", radio: "input",
    textbox: "input", searchbox: "input", combobox: "input", slider: "input", spinbutton: "input",
    gridcell: "button", listbox: "select", img: "image", image: "image",
  };
  const BUTTON_INPUT_TYPES = new Set(["button", "submit", "reset", "image"]);
  const NO_TEXT = "script,style,noscript,template";
  const TEXT_SKIP = new Set(["script", "style", "noscript", "template", "svg", "head", "title"]);
  const TEXT_MAX = 50, HREF_MAX = 100, VALUE_MAX = 60, ATTR_MAX = 200, PARENT_TEXT_MAX = 200;
  // A list line shows options until this many characters, then says how many more there are; details list them
  // all (up to OPTIONS_DETAILS).
  const OPTIONS_CHARS = 150, OPTIONS_DETAILS = 1000, OPTION_MAX = 80;

  const state = { refs: new Map(), indexOf: new WeakMap(), base: 1, next: 1, listWatermark: null };

  const clean = (s) => (s || "").replace(/\s+/g, " ").trim();
  const cut = (s, n) => (s.length > n ? s.slice(0, n - 1) + "…" : s);
  // Quoted and escaped as JSON: a value's quotes, backslashes, line breaks and edge spaces survive exactly.
  const quote = (s) => JSON.stringify(s);

  function setBase(base) {
    // A fresh document continues the tab's numbering, so an index from the previous page is recognisably old
    // instead of silently meaning some other element here.
    if (state.refs.size === 0 && state.next === state.base && base > state.base) {
      state.base = base;
      state.next = base;
    }
  }

  function register(el) {
    let index = state.indexOf.get(el);
    if (index === undefined) {
      index = state.next++;
      state.indexOf.set(el, index);
      state.refs.set(index, new WeakRef(el));
    }
    return index;
  }

  function kindOf(el) {
    const role = el.getAttribute("role");
    if (role && ROLE_KIND[role]) return ROLE_KIND[role];
    switch (el.localName) {
      case "a": return el.hasAttribute("href") ? "link" : "other";
      case "button": case "summary": return "button";
      case "input": return BUTTON_INPUT_TYPES.has(el.type) ? "button" : "input";
      case "textarea": return "input";
      case "select": return "select";
      case "img": return "image";
    }
    if (el.isContentEditable) return "input";
    if (role && !el.hasAttribute("onclick") && !el.hasAttribute("tabindex") && el.getAttribute("draggable") !== "true") {
      return null;  // a structural role (region, list, navigation...) on an otherwise inert element
    }
    return "other";
  }

  const intersects = (r, c) => r.right > c.l && r.left < c.r && r.bottom > c.t && r.top < c.b;
  const clipBox = (a, b) => ({ l: Math.max(a.l, b.l), t: Math.max(a.t, b.t), r: Math.min(a.r, b.r), b: Math.min(a.b, b.b) });
  const parentOf = (el) => el.parentElement || (el.parentNode && el.parentNode.host) || null;

  // The box an element's scrolling/overflow-clipping ancestors leave visible, in the frame's own coordinates.
  // Memoised per ancestor: only computed for elements whose own box is inside the viewport.
  function ancestorClip(el, memo) {
    const parent = parentOf(el);
    if (!parent || parent.localName === "body" || parent.localName === "html") return null;
    if (memo.has(parent)) return memo.get(parent);
    let clip = ancestorClip(parent, memo);
    const cs = getComputedStyle(parent);
    if (cs.overflowX !== "visible" || cs.overflowY !== "visible") {
      const r = parent.getBoundingClientRect();
      const own = { l: r.left, t: r.top, r: r.right, b: r.bottom };
      clip = clip ? clipBox(clip, own) : own;
    }
    memo.set(parent, clip);
    return clip;
  }

  function boxOf(el) {
    let r = el.getBoundingClientRect();
    // An inline link wrapping a floated or block child can have an empty box while its child shows.
    if ((r.width === 0 || r.height === 0) && el.firstElementChild) r = el.firstElementChild.getBoundingClientRect();
    return r;
  }

  const isRendered = (el, r) =>
    r.width > 0 && r.height > 0 && el.checkVisibility({ checkVisibilityCSS: true, visibilityProperty: true });

  // One pass over the page: every rendered interactive element in document order (shadow roots and same-origin
  // iframes spliced in where their host sits), with its kind, top-level box and whether it is in view.
  function scan(wantDialogs) {
    const vw = innerWidth, vh = innerHeight;
    const result = { records: [], forms: 0, crossOriginFrames: 0, dialogs: [], shadowRoots: 0 };
    const top = { dx: 0, dy: 0, clip: { l: 0, t: 0, r: vw, b: vh }, frame: null };
    result.records = scanRoot(document, top, result, wantDialogs);
    // Registered after splicing so a page's first indices follow reading order.
    for (const rec of result.records) rec.index = register(rec.el);
    return result;
  }

  // A target the page made clickable without saying so in its markup: a click listener (recorded by Hive's
  // listeners.js), or the outermost element of a `cursor: pointer` area (the cursor is inherited by its children).
  const LISTENS = Symbol.for("hive.clickListener");
  function clickableByScript(el, cursors) {
    if (el[LISTENS]) return true;
    const cursor = cursorOf(el, cursors);
    if (cursor !== "pointer") return false;
    const parent = parentOf(el);
    return !parent || parent.nodeType !== 1 || cursorOf(parent, cursors) !== "pointer";
  }
  function cursorOf(el, cursors) {
    let cursor = cursors.get(el);
    if (cursor === undefined) {
      cursor = getComputedStyle(el).cursor;
      cursors.set(el, cursor);
    }
    return cursor;
  }
  // Inside a target already listed (a link's icon, a button's label): clicking it is clicking the target.
  function insideTarget(el, targets) {
    for (let p = parentOf(el); p && p.nodeType === 1; p = parentOf(p)) if (targets.has(p)) return true;
    return false;
  }

  // What a list item may hold for the item itself not to be the target.
  const ITEM_TARGETS = "a[href],button,input,select,textarea,[role=button],[role=link],[role=option],[role=menuitem]";
  const MENU_ROLES = new Set(["menu", "menubar"]);

  // A menu or a list of choices the page made clickable as a whole (an autocomplete's `ul` that is focusable and
  // handles its items' clicks with one listener, a menu with tabindex): its items are the targets, each with its
  // own index, and the container is not one (its name would be every item's text run together). Adds the bare
  // items to `items`; false when `el` is not such a container.
  function choiceItems(el, cursors, items) {
    const role = el.getAttribute("role");
    if (MENU_ROLES.has(role) && el.querySelector("[role^=menuitem]")) return true;
    if (el.localName !== "ul" && el.localName !== "ol" && el.localName !== "menu") return false;
    const entries = Array.from(el.children).filter((child) => child.localName === "li");
    if (entries.length === 0) return false;
    const pointer = (e) => cursorOf(e, cursors) === "pointer";
    const handled = el[LISTENS] || el.hasAttribute("onclick") || MENU_ROLES.has(role);
    if (!handled && !pointer(el) && !entries.some(pointer)) return false;
    for (const item of entries) if (!item.querySelector(ITEM_TARGETS)) items.add(item);
    return true;
  }

  function candidates(root) {
    const marked = new Set(root.querySelectorAll(INTERACTIVE));
    const targets = new Set();
    const cursors = new Map();
    const found = [];
    const items = new Set();
    for (const el of root.querySelectorAll("*")) {
      let kind = marked.has(el) ? kindOf(el) : null;
      if (!kind && items.has(el)) kind = "button";
      const scripted = !kind && !TEXT_SKIP.has(el.localName) && clickableByScript(el, cursors) && !insideTarget(el, targets);
      if ((kind === "other" || scripted) && choiceItems(el, cursors, items)) continue;
      if (scripted) kind = "button";
      if (!kind) continue;
      targets.add(el);
      found.push([el, kind]);
    }
    return found;
  }

  function scanRoot(root, ctx, result, wantDialogs) {
    const records = [];
    const memo = new Map();
    for (const [el, kind] of candidates(root)) {
      const r = boxOf(el);
      if (!isRendered(el, r)) continue;
      let inView = false;
      const shifted = { left: r.left + ctx.dx, right: r.right + ctx.dx, top: r.top + ctx.dy, bottom: r.bottom + ctx.dy };
      if (intersects(shifted, ctx.clip)) {
        const clip = ancestorClip(el, memo);
        inView = !clip || intersects(r, clip);
      }
      records.push({
        el, kind, inView, frame: ctx.frame, index: 0,
        rect: [Math.round(shifted.left), Math.round(shifted.top), Math.round(r.width), Math.round(r.height)],
      });
    }
    result.forms += root.querySelectorAll("form").length;
    if (wantDialogs) collectDialogs(root, ctx, result);

    const nested = [];
    for (const el of root.querySelectorAll("*")) {
      if (el.shadowRoot) {
        if (root === document) result.shadowRoots++;
        nested.push([el, scanRoot(el.shadowRoot, ctx, result, wantDialogs)]);
      }
      if (el.localName === "iframe" || el.localName === "frame") {
        const inner = frameContext(el, ctx);
        if (inner === "cross-origin") result.crossOriginFrames++;
        else if (inner) nested.push([el, scanRoot(inner.doc, inner, result, wantDialogs)]);
      }
    }
    return nested.length ? splice(records, nested) : records;
  }

  function frameContext(frameEl, ctx) {
    let doc = null;
    try { doc = frameEl.contentDocument; } catch (e) { doc = null; }
    if (!doc) return frameEl.contentWindow ? "cross-origin" : null;
    const r = frameEl.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return null;
    const cs = getComputedStyle(frameEl);
    const left = r.left + frameEl.clientLeft + parseFloat(cs.paddingLeft) + ctx.dx;
    const top = r.top + frameEl.clientTop + parseFloat(cs.paddingTop) + ctx.dy;
    const own = { l: left, t: top, r: left + frameEl.clientWidth, b: top + frameEl.clientHeight };
    return { doc, dx: left, dy: top, clip: clipBox(ctx.clip, own), frame: frameEl };
  }

  // Insert each nested root's records right after the records that precede its host in document order.
  function splice(records, nested) {
    const at = (host) => {
      let lo = 0, hi = records.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        const pos = host.compareDocumentPosition(records[mid].el);
        if (pos & Node.DOCUMENT_POSITION_FOLLOWING && !(pos & Node.DOCUMENT_POSITION_CONTAINED_BY)) hi = mid;
        else lo = mid + 1;
      }
      return lo;
    };
    const inserts = nested.map(([host, recs]) => [at(host), recs]).sort((a, b) => a[0] - b[0]);
    const out = [];
    let i = 0;
    for (const [pos, recs] of inserts) {
      while (i < pos) out.push(records[i++]);
      for (const r of recs) out.push(r);
    }
    while (i < records.length) out.push(records[i++]);
    return out;
  }

  function collectDialogs(root, ctx, result) {
    for (const el of root.querySelectorAll(DIALOGS)) {
      const r = el.getBoundingClientRect();
      // Sites keep closed dialogs in the page marked aria-hidden.
      if (!isRendered(el, r) || el.closest("[aria-hidden=true]")) continue;
      const heading = el.querySelector("h1,h2,h3,h4,[role=heading]");
      // innerText keeps the breaks between blocks ("Privacy Overview This website…"); dialogs are few.
      const name = clean(el.getAttribute("aria-label")) || labelledBy(el) || clean(heading && heading.innerText) ||
        clean(el.innerText.slice(0, 200));
      result.dialogs.push(cut(name, 80));
    }
  }

  // @include accname.js

  function hrefOf(el) {
    const raw = el.getAttribute("href");
    if (!raw || raw === "#" || /^\s*javascript:/i.test(raw)) return "";
    let url;
    try { url = new URL(raw, el.baseURI); } catch (e) { return cut(raw, HREF_MAX); }
    // Same-origin links as a path: the origin is in the summary already and repeats on every line otherwise.
    const shown = url.origin === location.origin ? url.pathname + url.search + url.hash : url.href;
    return cut(shown, HREF_MAX);
  }

  const TEXT_ROLES = new Set(["textbox", "searchbox", "combobox"]);

  // The value exactly as the field holds it (not trimmed, line breaks kept); a password only says it is filled.
  function valueOf(el) {
    const tag = el.localName;
    // A field Hive typed a secret into (data-hive-secret) says no more than a password field does.
    if (el.hasAttribute("data-hive-secret")) return (el.value || el.innerText) ? "•••" : "";
    if (tag === "select") return Array.from(el.selectedOptions || []).map((o) => clean(o.label || o.text)).join(", ");
    if (tag === "input" || tag === "textarea") {
      if (tag === "input" && (BUTTON_INPUT_TYPES.has(el.type) || el.type === "checkbox" || el.type === "radio")) return "";
      if (el.type === "password") return el.value ? "•••" : "";
      if (el.type === "file") return Array.from(el.files || []).map((f) => f.name).join(", ");
      return el.value;
    }
    if ((el.isContentEditable && tag !== "body") || TEXT_ROLES.has(el.getAttribute("role"))) {
      return el.innerText.replace(/\n$/, "");  // an editor's last line ends with a break of its own
    }
    return "";
  }

  // A select's or listbox's option labels (the first `limit`) and how many there are.
  function optionsOf(el, limit) {
    const items = el.localName === "select" ? el.options : el.querySelectorAll("[role=option]");
    const labels = [];
    for (let i = 0; i < items.length && i < limit; i++) {
      const o = items[i];
      labels.push(cut(o.localName === "option" ? clean(o.label || o.text) : nameOf(o, "button"), OPTION_MAX));
    }
    return { labels, count: items.length };
  }

  function isEnabled(el) {
    if (el.matches(":disabled")) return false;
    return el.closest("[aria-disabled=true]") === null || el.getAttribute("aria-disabled") === "false";
  }

  const ariaState = (el, name) => {
    const v = el.getAttribute(name);
    return v === "true" ? true : v === "false" ? false : undefined;
  };

  // Code points, not UTF-16 units: what a person (and Python) counts as characters, and no emoji cut in half.
  const lengthOf = (s) => s.length - (s.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g) || []).length;

  // `full` (details): the whole value and every option, instead of what a list line shows. `listed`: the elements
  // listed with this one, so a listbox whose options have lines of their own does not repeat them.
  function describe(rec, isNew, active, full, listed) {
    const el = rec.el, tag = el.localName;
    const info = {
      index: rec.index, tag, kind: rec.kind, text: cut(nameOf(el, rec.kind), TEXT_MAX),
      visible: rec.inView, enabled: isEnabled(el), rect: rec.rect, new: isNew,
    };
    const role = el.getAttribute("role");
    if (role) info.role = role;
    if (tag === "input") info.type = el.type;
    // In a form a button's type says what it does (submit, reset, or nothing but its script).
    else if (tag === "button" && el.form) info.type = el.type;
    const placeholder = el.getAttribute("placeholder");
    if (placeholder) info.placeholder = cut(clean(placeholder), TEXT_MAX);
    if (tag === "a" || tag === "area") { const h = hrefOf(el); if (h) info.href = h; }
    const value = valueOf(el);
    if (!full && value.length > VALUE_MAX && lengthOf(value) > VALUE_MAX) {
      info.value = Array.from(value.slice(0, 2 * VALUE_MAX)).slice(0, VALUE_MAX - 1).join("") + "…";
      info.value_length = lengthOf(value);
    } else if (value) info.value = value;
    if (tag === "input" && (el.type === "checkbox" || el.type === "radio")) info.checked = el.checked;
    else if (el.hasAttribute("aria-checked")) info.checked = el.getAttribute("aria-checked") === "true";
    if (el.indeterminate || el.getAttribute("aria-checked") === "mixed") info.mixed = true;
    if (tag === "select" || role === "listbox") {
      const ownLines = !full && tag !== "select" && listed && Array.from(el.querySelectorAll("[role=option]")).some((o) => listed.has(o));
      const { labels, count } = optionsOf(el, ownLines ? 0 : full ? OPTIONS_DETAILS : 40);
      if (!ownLines) info.options = labels;
      info.option_count = count;
      if (el.multiple || el.getAttribute("aria-multiselectable") === "true") info.multiple = true;
    }
    if (tag === "input" || tag === "textarea" || tag === "select") {
      const name = el.getAttribute("name");
      if (name && !info.text && !info.placeholder) info.name = cut(name, TEXT_MAX);
    }
    if (el.isContentEditable && tag !== "input" && tag !== "textarea") info.editable = true;
    if (ariaState(el, "aria-selected")) info.selected = true;
    const expanded = tag === "summary" && el.parentElement && el.parentElement.localName === "details"
      ? el.parentElement.open : ariaState(el, "aria-expanded");
    if (expanded !== undefined) info.expanded = expanded;
    const pressed = ariaState(el, "aria-pressed");
    if (pressed !== undefined) info.pressed = pressed;
    if (el.required || ariaState(el, "aria-required")) info.required = true;
    if ((el.readOnly && (tag === "input" || tag === "textarea")) || ariaState(el, "aria-readonly")) info.readonly = true;
    if (el === active) info.focused = true;
    if (rec.frame) info.in_frame = true;
    if (el.getRootNode() instanceof ShadowRoot) info.in_shadow = true;
    return info;
  }

  // Option labels up to OPTIONS_CHARS, then how many more there are and where to see them: never a silent cut.
  function renderOptions(info) {
    let shown = "", n = 0;
    for (const label of info.options) {
      if (n && shown.length + label.length + 1 > OPTIONS_CHARS) break;
      shown += (n ? "|" : "") + label;
      n++;
    }
    const more = info.option_count - n;
    return " options(" + info.option_count + ")=" + quote(shown) + (more > 0 ? " +" + more + " more (get_element_details lists all)" : "");
  }

  // One compact line per element, e.g. `[13] input type=email "Email" placeholder="you@x" value="a@b"`.
  function renderLine(info, showOffscreen) {
    let line = (info.new ? "*[" : "[") + info.index + "] " + info.tag;
    if (info.role && info.role !== info.tag) line += " role=" + info.role;
    if (info.type && info.type !== "text") line += " type=" + info.type;
    if (info.text) line += " " + quote(info.text);
    if (info.name) line += " name=" + quote(info.name);
    if (info.placeholder && info.placeholder !== info.text) line += " placeholder=" + quote(info.placeholder);
    if (info.editable) line += " editable";
    if (info.value) {
      line += " value=" + quote(info.value);
      if (info.value_length) line += " (" + info.value_length + " chars; get_element_details shows all)";
    }
    if (info.options) line += renderOptions(info);
    else if (info.option_count) line += " options(" + info.option_count + ")";
    if (info.href) line += " href=" + info.href;
    if (info.checked) line += " checked";
    if (info.mixed) line += " mixed";
    if (info.selected) line += " selected";
    if (info.pressed) line += " pressed";
    if (info.expanded !== undefined) line += info.expanded ? " expanded" : " collapsed";
    if (info.multiple) line += " multiple";
    if (info.required) line += " required";
    if (!info.enabled) line += " disabled";
    if (info.readonly) line += " readonly";
    if (info.focused) line += " focused";
    if (showOffscreen && !info.visible) line += " offscreen";
    return line;
  }

  function deepActiveElement() {
    let el = document.activeElement;
    for (;;) {
      if (el && el.shadowRoot && el.shadowRoot.activeElement) { el = el.shadowRoot.activeElement; continue; }
      if (el && (el.localName === "iframe" || el.localName === "frame")) {
        let doc = null;
        try { doc = el.contentDocument; } catch (e) { doc = null; }
        if (doc && doc.activeElement) { el = doc.activeElement; continue; }
      }
      return el;
    }
  }

  // The block box a text belongs to: text in the same block flows on one line, a new block starts a new line.
  function blockOf(el, body) {
    for (let e = el; e && e !== body; e = e.assignedSlot || parentOf(e)) {
      const display = getComputedStyle(e).display;
      if (!display.startsWith("inline") && display !== "contents") return e;
    }
    return body;
  }

  // The visible text as a person reads it: inline elements joined without added spaces ("<b>Ada</b>," reads
  // "Ada,"), the white space the page has kept as one space, block boundaries as line breaks.
  // The text nodes of the page in the order they show: through open shadow roots and into slots when the page has
  // any (`flat`), else the plain document order, which a TreeWalker gives much faster.
  function* textNodes(body, flat) {
    if (!flat) {
      const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) yield node;
      return;
    }
    for (const child of childrenOf(body)) {
      if (child.nodeType === 3) yield child;
      else if (child.nodeType === 1 && !TEXT_SKIP.has(child.localName)) yield* textNodes(child, true);
    }
  }

  function visibleText(limit, flat) {
    const body = document.body || document.documentElement;
    if (!body) return "";
    const vh = innerHeight, vw = innerWidth;
    let out = "";
    let lastParent = null, lastVisible = false, lastBlock = null, block = null, space = false, lineBreak = false;
    for (const node of textNodes(body, flat)) {
      if (out.length >= limit) break;
      // A <br> just before the text (or before the inline element it opens) breaks the line inside a block.
      const before = node.previousSibling || (node.parentNode.firstChild === node ? node.parentNode.previousSibling : null);
      if (before && before.localName === "br") lineBreak = true;
      const text = node.data;
      if (!/\S/.test(text)) {
        space = true;
        continue;
      }
      const parent = node.parentElement;
      if (parent !== lastParent) {
        lastParent = parent;
        lastVisible = false;
        // A textarea's text is its value (listed with the field), not text of the page.
        if (parent && !TEXT_SKIP.has(parent.localName) && parent.localName !== "textarea") {
          const r = parent.getBoundingClientRect();
          // A 1-pixel box is text kept for screen readers only ("sr-only"): nobody sees it.
          lastVisible = r.width > 0 && r.height > 0 && (r.width > 1 || r.height > 1) && r.bottom > 0 && r.top < vh && r.right > 0 && r.left < vw &&
            parent.checkVisibility({ checkVisibilityCSS: true, visibilityProperty: true, opacityProperty: true });
          if (lastVisible) block = blockOf(parent, body);
        }
      }
      if (!lastVisible) continue;
      const flowed = text.replace(/\s+/g, " ");
      if (out) {
        if (block !== lastBlock || lineBreak) out += "\n";
        else if (space || flowed.startsWith(" ")) out += " ";
      }
      lineBreak = false;
      out += flowed.trim();
      space = flowed.endsWith(" ");
      lastBlock = block;
    }
    return cut(out, limit);
  }

  const COUNT_KEYS = { button: "buttons", input: "inputs", link: "links", select: "selects", image: "images" };

  function summary(opts) {
    setBase(opts.base);
    const found = scan(true);
    const counts = { buttons: 0, inputs: 0, links: 0, selects: 0, images: 0, forms: found.forms };
    for (const rec of found.records) if (COUNT_KEYS[rec.kind]) counts[COUNT_KEYS[rec.kind]]++;
    const active = deepActiveElement();
    let focused = null;
    if (active && active.localName !== "body" && active.localName !== "html") {
      const index = state.indexOf.get(active);
      focused = { tag: active.localName, index: index === undefined ? null : index };
    }
    const scroller = document.scrollingElement || document.documentElement;
    return {
      url: location.href, title: document.title.replace(/\s+/g, " ").trim(),
      viewport: [innerWidth, innerHeight], scroll: [Math.round(scrollX), Math.round(scrollY)],
      page: [scroller.scrollWidth, scroller.scrollHeight],
      counts, text: visibleText(opts.textLimit, found.shadowRoots > 0), focused, dialogs: found.dialogs,
      crossOriginFrames: found.crossOriginFrames, next: state.next,
    };
  }

  // In the "all" list an image earns a line only if it says something and is not already part of a link or
  // button (whose line carries its alt text).
  const listedImage = (el) => el.closest("a,button") === null && !!clean(el.getAttribute("alt") || el.title);

  function elements(opts) {
    setBase(opts.base);
    const found = scan(false);
    const watermark = state.listWatermark;
    const ofKind = found.records.filter((rec) =>
      opts.kind === "all" ? rec.kind !== "image" || listedImage(rec.el) : rec.kind === opts.kind);
    const inView = ofKind.filter((rec) => rec.inView);
    const active = deepActiveElement();
    const isNew = (rec) => watermark !== null && rec.index >= watermark;
    // Within the budget, what appeared since the last list comes first (a menu or a dialog an action opened is what
    // the model needs next, and is often at the end of the page), then the rest in document order; lines keep the
    // document's order.
    const list = (records, offscreen) => {
      const listed = new Set(records.map((rec) => rec.el));
      const shown = new Map();
      let size = 0;
      for (const rec of [...records.filter(isNew), ...records.filter((rec) => !isNew(rec))]) {
        const info = describe(rec, isNew(rec), active, false, listed);
        const line = renderLine(info, offscreen);
        if (size + line.length + 1 > opts.budget && shown.size) break;
        shown.set(rec, [line, info]);
        size += line.length + 1;
      }
      const kept = records.filter((rec) => shown.has(rec)).map((rec) => shown.get(rec));
      return {
        lines: kept.map(([line]) => line), items: kept.map(([, info]) => info), total: records.length,
        indices: records.map((rec) => rec.index),
      };
    };
    // In view only, unless asked for the whole page, or the whole page is small enough to list (wholeUpTo) and
    // fits the budget: then nothing needs looking up.
    let whole = !opts.visibleOnly ||
      (opts.wholeUpTo > 0 && ofKind.length <= opts.wholeUpTo && ofKind.length > inView.length);
    let out = list(whole ? ofKind : inView, whole);
    if (whole && opts.visibleOnly && out.items.length < out.total) {
      whole = false;
      out = list(inView, false);
    }
    state.listWatermark = state.next;
    return { ...out, whole, next: state.next };
  }

  // Is the element still the one the index was given to, in a live document?
  function liveness(el) {
    if (!el) return "gone";
    let doc = el.ownerDocument;
    while (doc !== document) {
      const win = doc.defaultView;
      let host = null;
      try { host = win && win.frameElement; } catch (e) { host = null; }
      if (!host || !host.isConnected || host.contentDocument !== doc) return "frame-detached";
      doc = host.ownerDocument;
    }
    return el.isConnected ? "ok" : "gone";
  }

  function lookup(index) {
    if (!Number.isInteger(index) || index >= state.next) return { status: "unknown" };
    if (index < state.base) return { status: "previous-page" };
    const ref = state.refs.get(index);
    const el = ref ? ref.deref() : undefined;
    const status = liveness(el);
    return { status, el: status === "ok" ? el : null };
  }

  // Why an action on the element would fail right now, checked up front so errors come back at once instead of
  // after Playwright's actionability timeout.
  function check(el) {
    const r = boxOf(el);
    const tag = el.localName;
    return {
      tag, rendered: isRendered(el, r), enabled: isEnabled(el), readonly: !!el.readOnly,
      editable: tag === "textarea" || (tag === "input" && !BUTTON_INPUT_TYPES.has(el.type)) || el.isContentEditable,
      select: tag === "select", multiple: tag === "select" && el.multiple, fileInput: tag === "input" && el.type === "file",
      options: tag === "select" ? Array.from(el.options).map((o) => ({ value: o.value, label: clean(o.label || o.text) })) : [],
      name: cut(nameOf(el, kindOf(el) || "other"), TEXT_MAX),
      // A link or a form's button that targets another window opens its tab a moment after the click returns.
      opensWindow: opensWindow(el), inLink: el.closest("a[href]") !== null,
      downloads: el.closest("a[href][download],area[href][download]") !== null,
    };
  }

  function opensWindow(el) {
    const link = el.closest("a[target],area[target]");
    const form = el.form || el.closest("form");
    const name = (link && link.getAttribute("target")) || (form && form.getAttribute("target")) || "";
    return name !== "" && !["_self", "_parent", "_top"].includes(name.toLowerCase());
  }

  function target(index) {
    const found = lookup(index);
    if (found.status !== "ok") return { status: found.status, next: state.next };
    return { status: "ok", inFrame: found.el.ownerDocument !== document, ...check(found.el) };
  }

  function element(index) { return lookup(index).el || null; }
  function frameOf(index) {
    const el = lookup(index).el;
    return el && el.ownerDocument !== document ? el.ownerDocument.defaultView.frameElement : null;
  }

  // @include element_details.js

  // The index of an element found another way (a workflow's recorded target), given one if it has none yet.
  function indexOf(el, base) {
    setBase(base);
    return { index: register(el), next: state.next };
  }

  const api = { summary, elements, details, target, element, frameOf, check, indexOf, next: () => state.next };
  Object.defineProperty(window, KEY, { value: api, enumerable: false, configurable: false, writable: false });
  return api;
})()
