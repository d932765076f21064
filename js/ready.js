// Whether the wasm module is instantiated. Only the entry modules mark it (not part of the API).
let ready = false;

export function markReady() {
  ready = true;
}

export function isReady() {
  return ready;
}
