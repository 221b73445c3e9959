// Corner Shop: a plain page with no WebMCP. The demo-shop SKILL drives it through its DOM, as a person would.
(() => {
  "use strict";

  const CART_KEY = "hive-demo-shop-cart";
  const PRODUCTS = [
    { id: "p101", name: "Ceramic Mug", category: "Kitchen", price: 12.5, description: "Stoneware mug, 350 ml, dishwasher safe.", stock: 40 },
    { id: "p102", name: "Pour-Over Coffee Dripper", category: "Kitchen", price: 24.0, description: "Cone dripper for single cups; takes size 02 filters.", stock: 15 },
    { id: "p103", name: "Paper Coffee Filters (100)", category: "Kitchen", price: 6.0, description: "Unbleached size 02 filters.", stock: 80 },
    { id: "p104", name: "Chef's Knife 20 cm", category: "Kitchen", price: 49.0, description: "Stainless steel blade with a beech handle.", stock: 8 },
    { id: "p105", name: "Linen Tea Towel", category: "Kitchen", price: 9.5, description: "Washed linen, 50 × 70 cm, sage green.", stock: 30 },
    { id: "p201", name: "Notebook A5, Dotted", category: "Stationery", price: 8.0, description: "160 pages of 100 g paper, lay-flat binding.", stock: 60 },
    { id: "p202", name: "Gel Pen Set (6)", category: "Stationery", price: 7.5, description: "0.5 mm gel pens in six colours.", stock: 45 },
    { id: "p203", name: "Desk Lamp", category: "Home", price: 39.0, description: "LED lamp with a dimmer and a warm white light.", stock: 0 },
    { id: "p204", name: "Wool Throw Blanket", category: "Home", price: 64.0, description: "Merino wool, 130 × 170 cm, charcoal.", stock: 6 },
    { id: "p205", name: "Scented Candle", category: "Home", price: 16.0, description: "Soy wax candle, cedar and fig, 40 hours.", stock: 25 },
    { id: "p301", name: "Water Bottle 750 ml", category: "Outdoors", price: 19.0, description: "Insulated steel bottle; keeps drinks cold for 24 hours.", stock: 35 },
    { id: "p302", name: "Travel Mug", category: "Outdoors", price: 21.0, description: "Leak-proof insulated mug, 400 ml.", stock: 20 },
    { id: "p303", name: "Compact Umbrella", category: "Outdoors", price: 17.5, description: "Folds to 24 cm; wind-resistant frame.", stock: 12 },
    { id: "p304", name: "Canvas Tote Bag", category: "Outdoors", price: 11.0, description: "Heavy cotton canvas with an inner pocket.", stock: 50 },
  ];
  const byId = new Map(PRODUCTS.map((p) => [p.id, p]));
  const $ = (selector) => document.querySelector(selector);
  const money = (amount) => `$${amount.toFixed(2)}`;

  function loadCart() {
    try {
      const saved = JSON.parse(localStorage.getItem(CART_KEY) || "{}");
      return Object.fromEntries(Object.entries(saved).filter(([id, qty]) => byId.has(id) && Number.isInteger(qty) && qty > 0));
    } catch {
      return {};
    }
  }

  let cart = loadCart();

  function saveCart() {
    localStorage.setItem(CART_KEY, JSON.stringify(cart));
  }

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function matches(product, query) {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const haystack = `${product.name} ${product.category} ${product.description}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  }

  function renderProducts() {
    const query = $("#shop-search").value.trim();
    const found = PRODUCTS.filter((p) => matches(p, query));
    const list = $("#product-list");
    list.replaceChildren();
    for (const product of found) {
      const item = element("li", `product${product.stock ? "" : " out-of-stock"}`);
      item.dataset.productId = product.id;
      const price = element("span", "product-price", money(product.price));
      price.dataset.price = String(product.price);
      const qty = element("input", "qty");
      Object.assign(qty, { type: "number", min: "1", max: "99", value: "1" });
      qty.setAttribute("aria-label", `Quantity of ${product.name}`);
      const add = element("button", "add-to-cart", product.stock ? "Add to cart" : "Out of stock");
      add.type = "button";
      add.disabled = !product.stock;
      add.addEventListener("click", () => addToCart(product.id, Number.parseInt(qty.value, 10) || 1));
      const buy = element("div", "buy");
      buy.append(qty, add);
      item.append(
        element("h3", "product-name", product.name),
        element("span", "product-category badge", product.category),
        element("p", "product-description muted", product.description),
        price,
        buy,
      );
      list.append(item);
    }
    $("#result-count").textContent = query
      ? `${found.length} of ${PRODUCTS.length} products match “${query}”`
      : `All ${PRODUCTS.length} products`;
  }

  function addToCart(id, quantity) {
    const product = byId.get(id);
    if (!product || !product.stock) return;
    cart[id] = Math.min(99, (cart[id] || 0) + Math.max(1, quantity));
    saveCart();
    renderCart();
  }

  function removeFromCart(id) {
    delete cart[id];
    saveCart();
    renderCart();
  }

  function renderCart() {
    const items = $("#cart-items");
    items.replaceChildren();
    let total = 0;
    let count = 0;
    for (const [id, quantity] of Object.entries(cart)) {
      const product = byId.get(id);
      const line = product.price * quantity;
      total += line;
      count += quantity;
      const item = element("li", "cart-item");
      Object.assign(item.dataset, { productId: id, quantity: String(quantity), price: String(product.price) });
      const remove = element("button", "remove secondary", "×");
      remove.type = "button";
      remove.setAttribute("aria-label", `Remove ${product.name}`);
      remove.addEventListener("click", () => removeFromCart(id));
      const name = element("span", "cart-item-name", product.name);
      const qty = element("span", "cart-item-qty muted", `× ${quantity}`);
      const price = element("span", "cart-item-price", money(line));
      const left = element("div");
      left.append(name, element("br"), qty);
      item.append(left, price, remove);
      items.append(item);
    }
    total = Math.round(total * 100) / 100;
    $("#cart-total").textContent = money(total);
    $("#cart-total").dataset.total = String(total);
    $("#cart-count").textContent = String(count);
    $("#cart-empty").hidden = count > 0;
    $("#checkout").disabled = count === 0;
  }

  function showCart(open) {
    $("#cart").hidden = !open;
    $("#cart-toggle").setAttribute("aria-expanded", String(open));
    document.querySelector("main.shop").classList.toggle("with-cart", open);
  }

  $("#shop-search-form").addEventListener("submit", (event) => {
    event.preventDefault();
    renderProducts();
  });
  $("#shop-search").addEventListener("input", renderProducts);
  $("#cart-toggle").addEventListener("click", () => showCart($("#cart").hidden));
  $("#cart-clear").addEventListener("click", () => {
    cart = {};
    saveCart();
    renderCart();
  });
  $("#checkout").addEventListener("click", () => {
    $("#checkout-note").hidden = false;
  });
  window.addEventListener("storage", (event) => {
    if (event.key === CART_KEY) {
      cart = loadCart();
      renderCart();
    }
  });

  renderProducts();
  renderCart();
})();
