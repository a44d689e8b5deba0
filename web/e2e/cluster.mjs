// Browser test of a cluster: three `torite serve` nodes on one PostgreSQL database
// (TORITE_TEST_POSTGRES, started by .ci/postgres.sh), each page reaching them through an
// address of its own that goes to its first node while that node answers and to the next ones
// otherwise, as a club's load balancer would. A table is created in one browser through node A
// (which drives it), a second browser joins and plays through node B (forwarded to A); A is
// killed with SIGKILL mid-game; both pages say the connection was lost, reconnect by themselves
// through the live nodes, and the game goes on to its end with no card lost. Under CI=true a
// missing database fails the test; elsewhere it is reported as skipped. Run by run.mjs.
import { execFileSync, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import net from "node:net";

const NAME = "a cluster of three nodes: the table's node killed mid-game, both pages reconnect through the others and the game ends";

/**
 * Starts `torite serve` on a free port of 127.0.0.1 as a node of the cluster on `db`, and waits
 * until it is ready: the process, and the port it said it serves on.
 */
async function startNode(bin, db) {
  const child = spawn(bin, ["serve", "--addr", "127.0.0.1:0", "--db", db, "--instant-bots", "--lease-ms", "3000", "--log", "warn"], {
    stdio: ["ignore", "inherit", "pipe"],
  });
  const port = await new Promise((resolve, reject) => {
    let seen = "";
    child.stderr.on("data", (chunk) => {
      process.stderr.write(chunk);
      if (seen === null) return;
      seen += chunk;
      const found = /serving http:\/\/127\.0\.0\.1:(\d+)\//.exec(seen);
      if (found) {
        seen = null;
        resolve(Number(found[1]));
      }
    });
    child.once("exit", (status) => reject(new Error(`a node exited with status ${status}`)));
    setTimeout(() => reject(new Error("a node did not say where it serves")), 15000);
  });
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return { child, port };
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGKILL");
  throw new Error(`the node on port ${port} did not become ready`);
}

/**
 * Listens on a free port of 127.0.0.1 and passes every connection on, byte for byte, to the first of `ports`
 * that accepts it (a load balancer in front of the nodes).
 */
function front(ports) {
  const server = net.createServer((client) => {
    client.pause();
    client.on("error", () => {});
    const attempt = (i) => {
      if (i >= ports.length) return client.destroy();
      const up = net.connect(ports[i], "127.0.0.1");
      let open = false;
      up.once("connect", () => {
        open = true;
        client.pipe(up);
        up.pipe(client);
        client.resume();
      });
      up.on("error", () => (open ? client.destroy() : attempt(i + 1)));
      up.on("close", () => open && client.destroy());
      client.on("close", () => up.destroy());
    };
    attempt(0);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

export default async function cluster({ test, shots, fitsPhone, browser, playToTheEnd, bin, tmp, out, join }) {
  const db = process.env.TORITE_TEST_POSTGRES;
  if (!db) {
    if (process.env.CI === "true") {
      await test(NAME, async () => {
        throw new Error("TORITE_TEST_POSTGRES names no database: the cluster test needs PostgreSQL under CI=true");
      });
    } else {
      console.log(`skipped - ${NAME} (no TORITE_TEST_POSTGRES)`);
    }
    return;
  }
  await test(NAME, async (page, _context, errors) => {
    await page.close();
    const nodes = [];
    const fronts = [];
    const contexts = [];
    try {
      for (let i = 0; i < 3; i++) nodes.push(await startNode(bin, db));
      const [pa, pb, pc] = nodes.map((n) => n.port);
      // The host's address goes to A first, the guest's to B first.
      fronts.push(await front([pa, pb, pc]), await front([pb, pc, pa]));
      const [hostPort, guestPort] = fronts.map((f) => f.address().port);
      const watch = (context) => context.on("page", (p) => p.on("pageerror", (e) => errors.push(String(e))));
      const phone = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true };
      const hostContext = await browser.newContext({ ...phone, locale: "en-US" });
      const guestContext = await browser.newContext({ ...phone, locale: "ja-JP" });
      contexts.push(hostContext, guestContext);
      watch(hostContext);
      watch(guestContext);
      await hostContext.addInitScript(() => {
        if (location.protocol.startsWith("http")) localStorage.setItem("torite-lang", "en");
      });
      await guestContext.addInitScript(() => {
        if (!location.protocol.startsWith("http")) return;
        localStorage.setItem("torite-lang", "ja");
        localStorage.setItem("torite-name", "Ben");
      });
      // The host creates the table through A, which drives it from then on.
      const host = await hostContext.newPage();
      await host.goto(`http://127.0.0.1:${hostPort}/`);
      await host.locator("#name").fill("Aki");
      await host.locator("#preset").selectOption("mini-misere-4");
      await host.locator("[name=deals]:not([data-kind])").fill("2");
      await host.locator("#fill").selectOption("");
      await host.locator("#create button[type=submit]").click();
      await host.waitForURL(/\/t\/[0-9a-f]+$/);
      const id = host.url().split("/").pop();
      for (const seat of [2, 3]) {
        await host.locator(`.seat-box[data-seat='${seat}'] button.add-bot`).click();
        await host.locator(`.seat-box[data-seat='${seat}'].kind-bot`).waitFor();
      }
      // The guest joins and plays through B.
      const guest = await guestContext.newPage();
      await guest.goto(`http://127.0.0.1:${guestPort}/t/${id}`);
      await guest.locator(".seat-box[data-seat='1'] button.join").click();
      await host.locator(".seat-box[data-seat='1'].kind-human").waitFor();
      await host.locator("button.start").click();
      await guest.locator(".hand .card").first().waitFor();
      const hands = async () => [await host.locator(".hand .card").count(), await guest.locator(".hand .card").count()];
      const dealt = await hands();
      // A few cards each, then the table waits on a person: nothing moves until they act.
      await Promise.all([playToTheEnd(host, { stopAfter: 3 }), playToTheEnd(guest, { stopAfter: 3 })]);
      await host.waitForTimeout(800);
      const before = await hands();
      if (!(before[0] < dealt[0] && before[1] < dealt[1])) throw new Error(`hands of ${dealt} cards dealt, ${before} before the kill`);
      nodes[0].child.kill("SIGKILL");
      // Both pages say the connection was lost, in their own language, and play waits.
      const hostBanner = host.locator(".conn-banner");
      const guestBanner = guest.locator(".conn-banner");
      await Promise.all([hostBanner.waitFor({ timeout: 10000 }), guestBanner.waitFor({ timeout: 10000 })]);
      const said = await Promise.all([hostBanner.innerText().catch(() => ""), guestBanner.innerText().catch(() => "")]);
      // The moment lasts about a second (the pages wait that long before trying again): both
      // sizes of both pages at once.
      await Promise.all([[host, "en"], [guest, "ja"]].map(async ([p, lang]) => {
        await p.screenshot({ path: join(out, `cluster-reconnecting-${lang}-phone.png`), fullPage: true });
        await p.setViewportSize({ width: 1280, height: 800 });
        await p.screenshot({ path: join(out, `cluster-reconnecting-${lang}-desktop.png`), fullPage: true });
        await p.setViewportSize({ width: 390, height: 844 });
      }));
      if (!/Connection lost|The server is restarting/.test(said[0])) throw new Error(`the host's page says ${JSON.stringify(said[0])}`);
      if (!/接続が切れました|サーバーを再起動しています/.test(said[1])) throw new Error(`the guest's page says ${JSON.stringify(said[1])}`);
      // Back by themselves, through B and C, with every card played before the kill.
      for (const [who, p] of [["host", host], ["guest", guest]]) {
        await p.locator(".table-view[data-live='1']").waitFor({ timeout: 30000 }).catch(async () => {
          await p.screenshot({ path: join(out, `failed-cluster-${who}.png`), fullPage: true });
          throw new Error(`the ${who}'s page did not reconnect: it says ${JSON.stringify(await p.locator(".conn-banner").innerText().catch(() => null))}`);
        });
      }
      if (await hostBanner.count()) throw new Error("the host's banner stays once the connection is back");
      const after = await hands();
      if (JSON.stringify(after) !== JSON.stringify(before)) throw new Error(`hands of ${before} cards before the kill, ${after} after`);
      await Promise.all([playToTheEnd(host), playToTheEnd(guest)]);
      await Promise.all([host.locator(".game-over").waitFor(), guest.locator(".game-over").waitFor()]);
      await fitsPhone(guest, "the game over on the cluster");
      // The last deal's summary is closed, as a person would, before the pictures (a state
      // that comes meanwhile, as the other page changes language, shows it again).
      for (const [who, p] of [["host", host], ["guest", guest]]) {
        await p.waitForTimeout(500);
        const close = p.locator(".modal button.close");
        if (await close.count()) await close.click();
        await p.locator(".modal").waitFor({ state: "detached" });
        await shots(p, `cluster-end-${who}`);
      }
      // The record, through a node that was not the table's, replays to the end.
      const res = await fetch(`http://127.0.0.1:${nodes[2].port}/api/tables/${id}/record`);
      if (!res.ok) throw new Error(`record: ${res.status}`);
      const file = join(tmp, `cluster-${id}.json`);
      writeFileSync(file, await res.text());
      const report = JSON.parse(execFileSync(bin, ["replay", file], { encoding: "utf8" }));
      if (report.finished !== true) throw new Error(`the record replays to ${JSON.stringify(report)}`);
    } finally {
      for (const c of contexts) await c.close().catch(() => {});
      for (const f of fronts) f.close();
      for (const { child: n } of nodes) {
        if (n.exitCode === null && n.signalCode === null) {
          const gone = new Promise((r) => n.once("exit", r));
          n.kill("SIGKILL");
          await gone;
        }
      }
    }
  });
}
