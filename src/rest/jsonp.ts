// JSONP on the legacy GET paths (SPEC 4.1): which callbacks are allowed, and the body that wraps JSON.

/** A plain dotted JavaScript identifier, at most 128 characters: nothing that could carry script. */
export const CALLBACK = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;

export function validCallback(callback: string): boolean {
  return callback.length <= 128 && CALLBACK.test(callback);
}

/**
 * The JSONP body. The leading comment and the typeof guard are the usual defences against a response
 * being sniffed as something else (Rosetta Flash) and against a missing callback; U+2028 and U+2029
 * are escaped because they end a line in JavaScript but not in JSON.
 */
export function jsonpBody(callback: string, json: string): string {
  return `/**/ typeof ${callback} === 'function' && ${callback}(${json.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')});`;
}
