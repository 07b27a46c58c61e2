/**
 * Redaction at the provider boundary. A provider knows its secrets — the API key, every header value
 * it sends, the credentials and query values of its base URL — and passes every text that may leave
 * the process (error messages, kept error bodies) through `redact` first. URLs are only ever
 * recorded in the shape the OTel HTTP conventions give `url.full`: no userinfo, query values replaced
 * by `REDACTED`, query keys kept.
 */

export const REDACTED = 'REDACTED';

/**
 * Values shorter than this are not searched for: replacing a two-letter password everywhere would
 * shred every message while protecting nothing a guess could not find.
 */
export const MIN_SECRET_CHARS = 4;

/** A redactor for a fixed set of secret values. */
export interface Redactor {
  redact(text: string): string;
}

/**
 * Every secret and the forms it travels in (URL-encoded for query values and userinfo,
 * JSON-escaped for bodies that echo it), longest first so a secret containing another is replaced
 * whole.
 */
export function redactor(secrets: Iterable<string>): Redactor {
  const forms = new Set<string>();
  for (const secret of secrets) {
    // A JavaScript caller's header map may hold a non-string; it is no secret text.
    if (typeof secret !== 'string') continue;
    for (const form of [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]) {
      if (form.length >= MIN_SECRET_CHARS) forms.add(form);
    }
  }
  const ordered = [...forms].sort((a, b) => b.length - a.length);
  return {
    redact(text: string): string {
      let out = text;
      for (const form of ordered) out = out.split(form).join(REDACTED);
      return out;
    },
  };
}

/** `url` as it may be recorded: without userinfo, every query value replaced by REDACTED. */
export function recordedUrl(url: URL): string {
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  const keys = [...copy.searchParams.keys()];
  if (keys.length > 0) copy.search = keys.map((key) => `${encodeURIComponent(key)}=${REDACTED}`).join('&');
  return copy.href;
}

/** percent-decoded text, or the text itself when it is not valid percent-encoding. */
export function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The secrets a URL carries: its username, password and every query value, as written and decoded. */
export function urlSecrets(url: URL): string[] {
  const written = url.search
    .slice(1)
    .split('&')
    .map((pair) => pair.slice(pair.indexOf('=') + 1 || pair.length));
  return [url.username, url.password, ...written, ...[url.username, url.password].map(decoded), ...url.searchParams.values()].filter(
    (value) => value !== '',
  );
}
