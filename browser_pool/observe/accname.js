// How the page model names elements and reads their text (accname 1.2, the steps pages rely on), and the text
// beside a control that has no name. bridge.py splices it into page_model.js at its include marker, so it shares
// the model's helpers (clean, cut, state, INTERACTIVE ...).

  // The text aria-labelledby points to; a referenced element counts even when hidden (accname 2B).
  function labelledBy(el) {
    const ids = el.getAttribute("aria-labelledby");
    if (!ids) return "";
    const root = el.getRootNode();
    return clean(ids.split(/\s+/).map((id) => (root.getElementById ? root.getElementById(id) : null))
      .filter((ref) => ref && ref !== el).map((ref) => textOf(ref, el, 400, !ref.checkVisibility())).join(" "));
  }

  // Roles whose name never comes from their content (accname "name from author" only): their content is a value
  // or a list of other targets.
  const NAME_NOT_FROM_CONTENT = new Set(["textbox", "searchbox", "combobox", "listbox", "slider", "spinbutton",
    "tree", "treegrid", "grid", "menu", "menubar", "tablist", "radiogroup", "list", "table", "dialog"]);
  const VISIBLE = { checkVisibilityCSS: true, visibilityProperty: true };

  // An element's rendered text as accname computes it from content (steps 2C-2G, the parts pages rely on): hidden
  // descendants left out, an embedded control counted by its value (the control being named, `self`, not at all),
  // an element's aria-label or an image's alt in place of its content; inline elements joined without added spaces,
  // blocks and <br> apart. Stops after about `limit` characters.
  function textOf(root, self, limit, hiddenOk) {
    let out = "";
    const walk = (node) => {
      for (const child of childrenOf(node)) {
        if (out.length >= limit) break;
        if (child.nodeType === 3) { out += child.data; continue; }
        if (child.nodeType !== 1 || child === self) continue;
        const tag = child.localName;
        if (tag === "br") { out += "\n"; continue; }
        if (tag === "svg") { const title = child.querySelector("title"); if (title) out += title.textContent; continue; }
        if (TEXT_SKIP.has(tag) || child.getAttribute("aria-hidden") === "true") continue;
        const style = getComputedStyle(child);
        if (!hiddenOk && style.display !== "contents" && !child.checkVisibility(VISIBLE)) continue;
        const block = !style.display.startsWith("inline") && style.display !== "contents";
        if (block) out += " ";
        const embedded = embeddedValue(child);
        const aria = embedded === null ? clean(child.getAttribute("aria-label")) : "";
        if (embedded !== null) out += embedded;
        else if (aria) out += aria;
        else if (tag === "img") out += child.getAttribute("alt") || "";
        else walk(child);
        if (block) out += " ";
      }
    };
    walk(root);
    return out;
  }

  // The nodes rendered in an element's place: its open shadow tree's, the nodes assigned to a slot, or its own.
  function childrenOf(node) {
    if (node.localName === "slot") {
      const assigned = node.assignedNodes({ flatten: true });
      return assigned.length ? assigned : node.childNodes;
    }
    return (node.shadowRoot || node).childNodes;
  }

  // The value an embedded control adds to the name of what contains it (accname 2C); null for anything else.
  function embeddedValue(el) {
    const tag = el.localName;
    if (el.hasAttribute("data-hive-secret")) return "";  // a secret Hive typed, as a password's value
    if (tag === "select") return Array.from(el.selectedOptions).map((o) => o.label || o.text).join(" ");
    if (tag === "textarea") return el.value;
    if (tag === "input") return ["checkbox", "radio", "file", "password"].includes(el.type) ? "" : el.value;
    return null;
  }

  // The element's rendered text, on one line (parent text of details, captions beside controls ...).
  const shortText = (el) => clean(textOf(el, null, 400, false));

  const DEFAULT_BUTTON_VALUE = { submit: "Submit", reset: "Reset" };

  // What a person would call the element, in accname's order: aria-labelledby, aria-label, the native label (a
  // form field's <label>s, an input button's value, an image's alt), the content for roles named by their
  // content, the title; for a form field with none of them, the text beside it.
  function nameOf(el, kind) {
    const aria = labelledBy(el) || clean(el.getAttribute("aria-label"));
    if (aria) return aria;
    const tag = el.localName;
    if (tag === "input" && BUTTON_INPUT_TYPES.has(el.type)) {
      return clean(el.type === "image" ? el.alt || el.value : el.value || DEFAULT_BUTTON_VALUE[el.type] || "") || clean(el.title);
    }
    if (tag === "input" || tag === "textarea" || tag === "select") {
      const label = el.labels ? clean(Array.from(el.labels).map((l) => textOf(l, el, 400, false)).join(" ")) : "";
      // A placeholder names the box already; a guess from nearby text is only for a box with nothing at all.
      return label || clean(el.title) || (el.getAttribute("placeholder") ? "" : nearbyLabel(el));
    }
    if (kind === "image") return clean(el.getAttribute("alt") || el.title);
    const role = el.getAttribute("role");
    if (NAME_NOT_FROM_CONTENT.has(role) || (el.isContentEditable && !role)) {
      return clean(el.title) || nearbyLabel(el);  // its content is its value, not its name
    }
    return clean(textOf(el, null, 400, false)) || clean(el.title);
  }

  // A control without a label element often has its words next to it: text just before it (or before the wrapper it
  // is alone in), its table row's header cell, its column's header, or its fieldset's legend.
  const CONTROLS = "input,select,textarea,button,[contenteditable]";
  function nearbyLabel(el) {
    let node = el;
    for (let depth = 0; depth < 3 && node; depth++) {
      const before = node.previousElementSibling;
      const targetIn = (e) => state.indexOf.has(e) || Array.from(e.querySelectorAll("*")).some((d) => state.indexOf.has(d));
      if (before && !before.matches(INTERACTIVE) && !before.querySelector(INTERACTIVE) && !targetIn(before)) {
        const text = shortText(before);
        if (text && text.length <= TEXT_MAX) return text;  // a caption, not a paragraph
        if (text) break;
      }
      const parent = node.parentElement;
      if (!parent || parent.querySelectorAll(CONTROLS).length > 1 || parent.localName === "td" || parent.localName === "th") break;
      node = parent;
    }
    const cell = el.closest("td,th");
    if (cell) {
      const row = cell.parentElement;
      const header = row && Array.from(row.cells).find((c) => c !== cell && (c.localName === "th" || c.cellIndex === 0) && !c.querySelector(CONTROLS));
      if (header && shortText(header)) return shortText(header);
      const table = cell.closest("table");
      const head = table && table.tHead && table.tHead.rows[0];
      const column = head && head.cells[cell.cellIndex];
      if (column && shortText(column)) return shortText(column);
    }
    const legend = el.closest("fieldset") && el.closest("fieldset").querySelector("legend");
    return legend ? shortText(legend) : "";
  }
