// DOM helpers and the page's requests. Everything the agent sends is shown as text (text
// nodes and textContent), never parsed as HTML.

export const $ = (id) => document.getElementById(id);

/** An element with attributes and children; strings become text nodes. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null) continue;
    if (name === "onclick") node.addEventListener("click", value);
    else node.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

export const pretty = (value) =>
  typeof value === "string" ? value : JSON.stringify(value, null, 2);

export async function post(action) {
  $("error").textContent = "";
  const res = await fetch("/api", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(action),
  });
  const text = await res.text();
  if (!res.ok) {
    // The server's page says `<status>: <what is wrong>`: only what is wrong is shown.
    const said = new DOMParser().parseFromString(text, "text/html").body.textContent ?? "";
    $("error").textContent =
      said.replace(/^\s*\d{3}: /, "").trim() || `${res.status} ${res.statusText}`;
    return undefined;
  }
  return JSON.parse(text);
}
