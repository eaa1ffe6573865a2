// Typed lookups of the elements the server rendered. A missing element is a bug in the page, so
// it throws with the id rather than failing later on undefined.
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`pay page: element #${id} is missing`);
  return element as T;
}

export function setText(id: string, text: string): void {
  byId(id).textContent = text;
}

export function show(id: string, visible: boolean): void {
  byId(id).hidden = !visible;
}
