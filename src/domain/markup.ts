// The one escaper for text put into HTML, SVG or XML (pages, the GPX download, the API docs).

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** `value` safe as text or as a quoted attribute value; `&#39;` is read the same by HTML and XML. */
export function escapeMarkup(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}
