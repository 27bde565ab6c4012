// SHA-256 in hex, as build.py's hashlib writes it: what the site's caches are checked
// against on every use.

/** The SHA-256 of `bytes` (an ArrayBuffer or a view), in lowercase hex. */
export async function sha256Hex(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
