// Where the learner's code lives besides the editor: share links
// (`#code=<base64url of the UTF-8 code>`, in the fragment so no server ever
// sees or truncates it) and localStorage.

// Chromium refuses URLs over 2 MiB; a link is kept well under that.
export const MAX_LINK_CHARS = 1_000_000;

/** Base64url, unpadded, of the UTF-8 bytes of `text`. */
export function encode(text) {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** The text `encode` made; throws on anything that is not base64url of UTF-8. */
export function decode(encoded) {
  const binary = atob(encoded.replaceAll("-", "+").replaceAll("_", "/"));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
}

/** A link to `page` (this one, by default) that opens with `code` in the editor. */
export function shareLink(code, page = location.href) {
  const url = new URL(page);
  url.hash = `code=${encode(code)}`;
  return url.href;
}

/** The code in this page's `#code=` fragment: null when there is none, an Error when unreadable or empty. */
export function codeFromLink() {
  const match = /(?:^#|&)code=([^&]*)/.exec(location.hash);
  if (!match) return null;
  if (!match[1]) return new Error("the link holds no code (nothing after #code=)");
  try {
    return decode(match[1]);
  } catch {
    return new Error("the link's code could not be read (it is not base64url of UTF-8 text)");
  }
}

/** localStorage that never throws: storage can be full or switched off. */
export const store = {
  get(key) {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  /** Every key kept; none when storage is switched off. */
  keys() {
    try {
      return Object.keys(localStorage);
    } catch {
      return [];
    }
  },
  set(key, value) {
    try {
      localStorage.setItem(key, value);
      return true;
    } catch {
      return false;
    }
  },
};
