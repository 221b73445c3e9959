// SkyFinder: a flight search that exposes its features as WebMCP tools (document.modelContext.registerTool).
// The data is generated, deterministic per route: the same from/to pair always gives the same 12 flights.
(() => {
  "use strict";

  const AIRLINES = [
    { code: "AU", name: "Aurora Air" },
    { code: "BH", name: "Blue Heron Airlines" },
    { code: "CB", name: "Cobalt Airways" },
    { code: "DX", name: "Dune Express" },
    { code: "EG", name: "Evergreen Air" },
    { code: "FL", name: "Falcon Lines" },
  ];
  // name, latitude, longitude: known airports get realistic flight times; any other 3-letter code works too.
  const AIRPORTS = {
    PEK: ["Beijing Capital", 40.08, 116.58], PKX: ["Beijing Daxing", 39.51, 116.41],
    SHA: ["Shanghai Hongqiao", 31.2, 121.34], PVG: ["Shanghai Pudong", 31.14, 121.81],
    CAN: ["Guangzhou Baiyun", 23.39, 113.3], SZX: ["Shenzhen Bao'an", 22.64, 113.81],
    CTU: ["Chengdu Tianfu", 30.31, 104.44], HKG: ["Hong Kong", 22.31, 113.91],
    NRT: ["Tokyo Narita", 35.77, 140.39], HND: ["Tokyo Haneda", 35.55, 139.78],
    SIN: ["Singapore Changi", 1.36, 103.99], LHR: ["London Heathrow", 51.47, -0.45],
    CDG: ["Paris Charles de Gaulle", 49.01, 2.55], FRA: ["Frankfurt", 50.03, 8.56],
    AMS: ["Amsterdam Schiphol", 52.31, 4.76], JFK: ["New York JFK", 40.64, -73.78],
    SFO: ["San Francisco", 37.62, -122.38], LAX: ["Los Angeles", 33.94, -118.41],
    SEA: ["Seattle-Tacoma", 47.45, -122.31], ORD: ["Chicago O'Hare", 41.98, -87.9],
  };
  const airportName = (code) => (AIRPORTS[code] ? AIRPORTS[code][0] : code);
  const FLIGHTS_PER_ROUTE = 12;
  const MAX_STOPS = 2;
  const CURRENCY = "USD";
  const SEARCH_DELAY_MS = 250;

  const state = {
    search: null, // {from, to, date}
    flights: [],
    filters: { maxPrice: null, maxStops: null, airline: null },
  };

  // ---- deterministic data -------------------------------------------------------------------------------

  function hashString(text) { // FNV-1a, 32 bit
    let hash = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) {
      hash ^= text.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
    return hash;
  }

  function mulberry32(seed) {
    let a = seed >>> 0;
    return () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  function clock(minutes) {
    const m = ((minutes % 1440) + 1440) % 1440;
    return `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
  }

  function distanceKm(from, to) {
    const [, lat1, lon1] = AIRPORTS[from];
    const [, lat2, lon2] = AIRPORTS[to];
    const rad = Math.PI / 180;
    const a = Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
      Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
    return 12742 * Math.asin(Math.sqrt(a));
  }

  function generateFlights(from, to, date) {
    const seed = hashString(`${from}-${to}`);
    const random = mulberry32(seed);
    const km = AIRPORTS[from] && AIRPORTS[to] ? distanceKm(from, to) : 400 + (seed % 6000);
    const baseDuration = Math.round((35 + (km / 820) * 60) / 5) * 5; // nonstop, at about 820 km/h plus taxiing
    const flights = [];
    for (let i = 0; i < FLIGHTS_PER_ROUTE; i++) {
      const airline = AIRLINES[Math.floor(random() * AIRLINES.length)];
      const roll = random();
      const stops = roll < 0.45 ? 0 : roll < 0.8 ? 1 : 2;
      const departure = 360 + Math.round((random() * 16 * 60) / 5) * 5;
      const duration = baseDuration + stops * (45 + Math.round((random() * 90) / 5) * 5) + Math.round((random() * 30) / 5) * 5;
      const base = 50 + km * 0.09;
      const price = Math.round((base * (1 - stops * 0.15) * (0.75 + random() * 0.8)) / 5) * 5;
      const flightNumber = `${airline.code}${100 + i * 70 + Math.floor(random() * 60)}`;
      flights.push({
        id: flightNumber,
        airline: airline.name,
        flightNumber,
        from,
        to,
        date,
        departure: clock(departure),
        arrival: clock(departure + duration),
        arrivalDayOffset: Math.floor((departure + duration) / 1440),
        durationMinutes: duration,
        stops,
        price,
        currency: CURRENCY,
      });
    }
    flights.sort((a, b) => a.departure.localeCompare(b.departure) || a.id.localeCompare(b.id));
    return flights;
  }

  // ---- validation (the browser does not check input against inputSchema; the tools do) --------------------

  class InputError extends Error {}

  function checkObject(tool, input, allowed) {
    if (input === null || typeof input !== "object" || Array.isArray(input)) {
      throw new InputError(`${tool} takes a JSON object${allowed.length ? ` with ${allowed.join(", ")}` : " (use {})"}.`);
    }
    const unknown = Object.keys(input).filter((key) => !allowed.includes(key));
    if (unknown.length) {
      const takes = allowed.length ? `takes only ${allowed.join(", ")}` : "takes no arguments (use {})";
      throw new InputError(`${tool}: unknown field(s) ${unknown.map((k) => `"${k}"`).join(", ")}; it ${takes}.`);
    }
  }

  function airportCode(field, value) {
    if (typeof value !== "string" || !/^[A-Za-z]{3}$/.test(value.trim())) {
      const examples = Object.keys(AIRPORTS).slice(0, 6).join(", ");
      throw new InputError(
        `"${field}" must be a 3-letter IATA airport code such as ${examples}; got ${JSON.stringify(value)}.`,
      );
    }
    return value.trim().toUpperCase();
  }

  function isoDate(value) {
    const match = typeof value === "string" && /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
    if (match) {
      const [year, month, day] = match.slice(1).map(Number);
      const parsed = new Date(Date.UTC(year, month - 1, day));
      if (parsed.getUTCFullYear() === year && parsed.getUTCMonth() === month - 1 && parsed.getUTCDate() === day) {
        return value.trim();
      }
    }
    throw new InputError(`"date" must be a calendar date written YYYY-MM-DD, e.g. "2026-03-14"; got ${JSON.stringify(value)}.`);
  }

  function airlineName(value) {
    const wanted = value.trim().toLowerCase();
    const found = AIRLINES.find((a) => a.name.toLowerCase() === wanted || a.code.toLowerCase() === wanted);
    if (!found) {
      throw new InputError(
        `Unknown airline ${JSON.stringify(value)}; the airlines are ${AIRLINES.map((a) => `${a.name} (${a.code})`).join(", ")}.`,
      );
    }
    return found.name;
  }

  function filterChanges(input) {
    const changes = {};
    if ("maxPrice" in input) {
      const v = input.maxPrice;
      if (v !== null && (typeof v !== "number" || !Number.isFinite(v) || v < 0)) {
        throw new InputError(`"maxPrice" must be a number of ${CURRENCY} (0 or more), or null to clear it; got ${JSON.stringify(v)}.`);
      }
      changes.maxPrice = v;
    }
    if ("maxStops" in input) {
      const v = input.maxStops;
      if (v !== null && (!Number.isInteger(v) || v < 0 || v > MAX_STOPS)) {
        throw new InputError(`"maxStops" must be 0 (nonstop), 1 or 2, or null to clear it; got ${JSON.stringify(v)}.`);
      }
      changes.maxStops = v;
    }
    if ("airline" in input) {
      const v = input.airline;
      if (v !== null && typeof v !== "string") {
        throw new InputError(`"airline" must be an airline name or null to clear it; got ${JSON.stringify(v)}.`);
      }
      changes.airline = v === null || v.trim() === "" ? null : airlineName(v);
    }
    return changes;
  }

  // ---- state changes (shared by the tools and the human UI) ------------------------------------------------

  function visibleFlights() {
    const { maxPrice, maxStops, airline } = state.filters;
    return state.flights.filter(
      (f) =>
        (maxPrice === null || f.price <= maxPrice) &&
        (maxStops === null || f.stops <= maxStops) &&
        (airline === null || f.airline === airline),
    );
  }

  function snapshot() {
    const shown = visibleFlights();
    const result = {
      searched: state.search !== null,
      filters: { ...state.filters },
      total: state.flights.length,
      shown: shown.length,
      flights: shown,
    };
    if (state.search) {
      const { from, to, date } = state.search;
      result.route = { from, fromName: airportName(from), to, toName: airportName(to) };
      result.date = date;
    } else {
      result.note = "No search yet: call searchFlights first.";
    }
    return result;
  }

  function search(from, to, date) {
    if (from === to) throw new InputError(`"from" and "to" are the same airport (${from}); pick two different airports.`);
    state.search = { from, to, date };
    state.flights = generateFlights(from, to, date);
    render();
  }

  function setFilters(changes) {
    Object.assign(state.filters, changes);
    render();
  }

  function resetFilters() {
    state.filters = { maxPrice: null, maxStops: null, airline: null };
    render();
  }

  // ---- rendering -------------------------------------------------------------------------------------------

  const $ = (selector) => document.querySelector(selector);

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function duration(minutes) {
    return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, "0")}m`;
  }

  function render() {
    const { maxPrice, maxStops, airline } = state.filters;
    $("#filter-max-price").value = maxPrice === null ? "" : String(maxPrice);
    $("#filter-max-stops").value = maxStops === null ? "" : String(maxStops);
    $("#filter-airline").value = airline === null ? "" : airline;
    if (state.search) {
      $("#from").value = state.search.from;
      $("#to").value = state.search.to;
      $("#date").value = state.search.date;
    }
    const shown = visibleFlights();
    const list = $("#results");
    list.replaceChildren();
    if (!state.search) {
      $("#summary").textContent = "Search for a route to see flights.";
      return;
    }
    const { from, to, date } = state.search;
    const filtered = shown.length === state.flights.length ? "" : ` · ${shown.length} shown after filters`;
    $("#summary").textContent = `${state.flights.length} flights ${from} → ${to} on ${date}${filtered}`;
    for (const f of shown) {
      const item = element("li", "flight");
      item.dataset.flightId = f.id;
      item.dataset.price = String(f.price);
      item.dataset.stops = String(f.stops);
      const who = element("div");
      who.append(element("div", "airline", f.airline), element("div", "muted", f.flightNumber));
      const when = element("div");
      const arrival = f.arrival + (f.arrivalDayOffset ? ` +${f.arrivalDayOffset}` : "");
      when.append(element("div", "times", `${f.departure} → ${arrival}`), element("div", "muted", duration(f.durationMinutes)));
      const stops = element("div", `stops${f.stops === 0 ? " nonstop" : ""}`, f.stops === 0 ? "Nonstop" : `${f.stops} stop${f.stops > 1 ? "s" : ""}`);
      const price = element("div", "price", `$${f.price}`);
      item.append(who, when, stops, price);
      list.append(item);
    }
    if (!shown.length) list.append(element("li", "muted", "No flights match these filters."));
  }

  function logActivity(name, input, outcome, isError) {
    const line = element("li", isError ? "error" : "", `${new Date().toLocaleTimeString()} ${name}(${JSON.stringify(input)}) → ${outcome}`);
    $("#activity").prepend(line);
  }

  // ---- WebMCP tools ----------------------------------------------------------------------------------------

  function sleep(ms, signal) {
    return new Promise((resolve, reject) => {
      if (signal && signal.aborted) return reject(new DOMException("The tool call was cancelled.", "AbortError"));
      const timer = setTimeout(resolve, ms);
      if (signal) {
        signal.addEventListener("abort", () => {
          clearTimeout(timer);
          reject(new DOMException("The tool call was cancelled.", "AbortError"));
        }, { once: true });
      }
    });
  }

  const airlineList = AIRLINES.map((a) => a.name).join(", ");
  const TOOLS = [
    {
      name: "searchFlights",
      title: "Search flights",
      description:
        "Search one-way flights between two airports on a date and show them on the page. Returns the flights " +
        "shown (the current filters still apply) with price, stops, airline and times.",
      inputSchema: {
        type: "object",
        properties: {
          from: { type: "string", pattern: "^[A-Za-z]{3}$", description: "Departure airport, 3-letter IATA code, e.g. PEK." },
          to: { type: "string", pattern: "^[A-Za-z]{3}$", description: "Arrival airport, 3-letter IATA code, e.g. SHA." },
          date: { type: "string", format: "date", description: "Departure date, YYYY-MM-DD." },
        },
        required: ["from", "to", "date"],
        additionalProperties: false,
      },
      async run(input, signal) {
        checkObject("searchFlights", input, ["from", "to", "date"]);
        const from = airportCode("from", input.from);
        const to = airportCode("to", input.to);
        const date = isoDate(input.date);
        $("#loading").hidden = false;
        try {
          await sleep(SEARCH_DELAY_MS, signal);
        } finally {
          $("#loading").hidden = true;
        }
        search(from, to, date);
        return snapshot();
      },
    },
    {
      name: "setFilters",
      title: "Set filters",
      description:
        "Filter the flights shown. Give any of maxPrice, maxStops, airline; fields you leave out keep their " +
        `current value and null clears one. Airlines: ${airlineList}. Returns the flights now shown.`,
      inputSchema: {
        type: "object",
        properties: {
          maxPrice: { type: ["number", "null"], minimum: 0, description: `Highest price in ${CURRENCY}; null: any price.` },
          maxStops: { type: ["integer", "null"], minimum: 0, maximum: MAX_STOPS, description: "0 for nonstop only, 1 or 2; null: any." },
          airline: { type: ["string", "null"], enum: [...AIRLINES.map((a) => a.name), null], description: "Only this airline; null: any." },
        },
        additionalProperties: false,
      },
      async run(input) {
        checkObject("setFilters", input, ["maxPrice", "maxStops", "airline"]);
        if (!Object.keys(input).length) {
          throw new InputError("setFilters needs at least one of maxPrice, maxStops, airline (null clears one; resetFilters clears all).");
        }
        setFilters(filterChanges(input));
        return snapshot();
      },
    },
    {
      name: "listFlights",
      title: "List flights",
      description: "Read the flights the page shows now (after filters), with the route, date and filters. Changes nothing.",
      inputSchema: { type: "object", properties: {}, additionalProperties: false },
      annotations: { readOnlyHint: true },
      async run(input) {
        checkObject("listFlights", input ?? {}, []);
        return snapshot();
      },
    },
    {
      name: "resetFilters",
      title: "Reset filters",
      description: "Clear every filter so all flights of the current search are shown. Returns them.",
      inputSchema: { type: "object", properties: {}, additionalProperties: false },
      async run(input) {
        checkObject("resetFilters", input ?? {}, []);
        resetFilters();
        return snapshot();
      },
    },
  ];

  function webmcpTool(tool) {
    const { run, ...definition } = tool;
    return {
      ...definition,
      // Today's API passes {signal}; the older one passes a client object. Either way only the signal is used.
      async execute(input, options) {
        const signal = options && options.signal instanceof AbortSignal ? options.signal : undefined;
        try {
          const result = await run(input, signal);
          logActivity(tool.name, input, `${result.shown} of ${result.total} flights shown`, false);
          return result;
        } catch (error) {
          logActivity(tool.name, input, `error: ${error.message}`, true);
          throw error instanceof InputError ? new Error(error.message) : error;
        }
      },
    };
  }

  async function registerTools() {
    const status = $("#webmcp-status");
    const modern = document.modelContext;
    const legacy = navigator.modelContext;
    try {
      if (modern && typeof modern.registerTool === "function") {
        for (const tool of TOOLS) await modern.registerTool(webmcpTool(tool));
        status.textContent = `WebMCP: ${TOOLS.length} tools registered`;
      } else if (legacy && typeof legacy.registerTool === "function") {
        for (const tool of TOOLS) legacy.registerTool(webmcpTool(tool));
        status.textContent = `WebMCP (navigator.modelContext): ${TOOLS.length} tools registered`;
      } else {
        status.textContent = "No WebMCP in this browser: use the form";
        return;
      }
      document.documentElement.dataset.webmcp = "registered";
    } catch (error) {
      status.textContent = `WebMCP registration failed: ${error.message}`;
      document.documentElement.dataset.webmcp = "failed";
    }
  }

  // ---- the human UI ----------------------------------------------------------------------------------------

  function showFormError(message) {
    const box = $("#form-error");
    box.textContent = message || "";
    box.hidden = !message;
  }

  function humanAction(action) {
    try {
      action();
      showFormError("");
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      showFormError(error.message);
      render();
    }
  }

  function setUp() {
    const datalist = $("#airports");
    for (const [code, [name]] of Object.entries(AIRPORTS)) {
      const option = element("option");
      option.value = code;
      option.label = name;
      datalist.append(option);
    }
    const airlineSelect = $("#filter-airline");
    for (const a of AIRLINES) {
      const option = element("option", "", a.name);
      option.value = a.name;
      airlineSelect.append(option);
    }
    const tomorrow = new Date(Date.now() + 86400000);
    $("#date").value = tomorrow.toISOString().slice(0, 10);

    $("#search-form").addEventListener("submit", (event) => {
      event.preventDefault();
      humanAction(() => search(airportCode("from", $("#from").value), airportCode("to", $("#to").value), isoDate($("#date").value)));
    });
    $("#filter-max-price").addEventListener("change", (event) => {
      const raw = event.target.value.trim();
      humanAction(() => setFilters(filterChanges({ maxPrice: raw === "" ? null : Number(raw) })));
    });
    $("#filter-max-stops").addEventListener("change", (event) => {
      const raw = event.target.value;
      humanAction(() => setFilters(filterChanges({ maxStops: raw === "" ? null : Number(raw) })));
    });
    $("#filter-airline").addEventListener("change", (event) => {
      humanAction(() => setFilters(filterChanges({ airline: event.target.value || null })));
    });
    $("#reset-filters").addEventListener("click", () => humanAction(resetFilters));
    render();
    registerTools();
  }

  setUp();
})();
