import { describe, expect, it } from 'vitest';
import { html, join, raw } from '../../src/http/html.ts';

describe('html', () => {
  it('escapes every value put into a template', () => {
    const name = '<script>alert("x")</script> & \'co\'';
    expect(String(html`<p title="${name}">${name}</p>`)).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;</p>',
    );
  });

  it('keeps markup made by html, once, however deep', () => {
    const item = (text: string) => html`<li>${text}</li>`;
    expect(String(html`<ul>${['a<b', 'c'].map(item)}</ul>`)).toBe('<ul><li>a&lt;b</li><li>c</li></ul>');
  });

  it('writes nothing for null, undefined and false, and numbers as they are', () => {
    const none = null;
    expect(String(html`${none}${undefined}${false}${0}${2.5}`)).toBe('02.5');
  });

  it('takes raw text only when asked, and joins with an escaped separator', () => {
    expect(String(html`${raw('<b>x</b>')}`)).toBe('<b>x</b>');
    expect(String(join(['<a>', html`<i>b</i>`], ' & '))).toBe('&lt;a&gt; &amp; <i>b</i>');
  });
});
