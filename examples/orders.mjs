// A stand-in for a tool that returns a large output, shared by the examples: 3,000 orders as JSON
// (~200 KB), one of them held at customs.
// @ts-check

/** @returns {Promise<string>} */
export async function fetchOrders() {
  const orders = Array.from({ length: 3000 }, (_, i) => ({
    id: `ord_${i}`,
    status: i === 2345 ? "held" : "shipped",
    note: i === 2345 ? "NEEDLE shipment held at customs" : "delivered",
    total: Math.round(i * 13.7) / 100,
  }));
  return JSON.stringify({ orders, has_more: false });
}

/** True when this module is the script node was started with. */
export const isMain = (/** @type {string} */ moduleUrl) =>
  process.argv[1] !== undefined && new URL(moduleUrl).pathname === process.argv[1];
