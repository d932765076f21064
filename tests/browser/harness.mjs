// Shared by the browser runners: headless Chromium launched the one way they all need, and the
// plain check list each runner prints (`ok - name`, then `N passed, N failed`).
import { chromium } from "playwright-core";

/** The system Chromium (CHROMIUM_PATH, else /usr/bin/chromium), headless, with no background work. */
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
      "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
    ],
  });
}

/**
 * `check(name, ok, detail)` prints one line per check; `report()` prints the closing
 * `N passed, N failed` and fails the process when any check failed or none ran.
 */
export function checkList() {
  const results = [];
  const check = (name, ok, detail = "") => {
    results.push(ok);
    console.log(`${ok ? "ok" : "not ok"} - ${name}${detail ? `: ${detail}` : ""}`);
  };
  const report = () => {
    const passed = results.filter(Boolean).length;
    console.log(`${passed} passed, ${results.length - passed} failed`);
    process.exitCode = results.length > 0 && passed === results.length ? 0 : 1;
  };
  return { check, report };
}
