// The Hive mark: a honey hexagon with a cell inside.

export function brandMark(size = 24): SVGSVGElement {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 32 32");
  svg.setAttribute("width", String(size));
  svg.setAttribute("height", String(size));
  svg.setAttribute("class", "brand-mark");
  svg.setAttribute("aria-hidden", "true");
  const outer = document.createElementNS(ns, "path");
  outer.setAttribute("d", "M16 2 28.1 9v14L16 30 3.9 23V9z");
  outer.setAttribute("fill", "#f59e0b");
  const inner = document.createElementNS(ns, "path");
  inner.setAttribute("d", "M16 10.5 20.8 13.2v5.6L16 21.5l-4.8-2.7v-5.6z");
  inner.setAttribute("fill", "#fff");
  svg.append(outer, inner);
  return svg;
}
