// Markup built by construction: a value put into an `html` template is escaped unless it is itself markup
// made by `html`, so a page cannot forget to escape. `raw` marks the few constant strings we write ourselves
// (a style sheet, a drawing built from numbers).
import { escapeMarkup } from '../domain/markup.ts';

export class Markup {
  readonly #text: string;
  constructor(text: string) {
    this.#text = text;
  }
  toString(): string {
    return this.#text;
  }
}

/** What a template may hold: text and numbers are escaped, markup is kept, nothing is written for null, undefined or false. */
export type Fragment = Markup | string | number | null | undefined | false | readonly Fragment[];

function render(value: Fragment): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Markup) return value.toString();
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeMarkup(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Fragment[]): Markup {
  let text = strings[0]!;
  for (let i = 0; i < values.length; i++) text += render(values[i]) + strings[i + 1];
  return new Markup(text);
}

/** Trusted markup: only for text this program wrote, never for anything a person or a client sent. */
export function raw(text: string): Markup {
  return new Markup(text);
}

/** Fragments joined by a separator, each escaped as in a template. */
export function join(fragments: readonly Fragment[], separator: string): Markup {
  return new Markup(fragments.map(render).join(escapeMarkup(separator)));
}
