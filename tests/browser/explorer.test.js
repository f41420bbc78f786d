// The explorer page (src/remote_page.html) in headless Chromium, against examples/remote.c
// running on a free port: the entity tree shows the game's entities by name, the search box
// narrows it, selecting an entity shows its components, and an edit made in the page reaches
// the world (read back with a JSON-RPC request of the test's own, not through the page); the
// Schedules tab lists the systems in order with timings and steps through them, the States tab
// queues a value, the Trace tab records a frame and draws it.
//
//   make browser-test      (installs puppeteer-core into build/browser, builds the example)
//
// Environment: REMOTE_EXAMPLE (the example's binary), CHROMIUM (the browser, default
// /usr/bin/chromium), PUPPETEER_CORE (the module), SCREENSHOT (also save the page there).
"use strict";
const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..", "..");
const puppeteer = require(process.env.PUPPETEER_CORE ||
  path.join(root, "build", "browser", "node_modules", "puppeteer-core"));
const example = process.env.REMOTE_EXAMPLE || path.join(root, "build", "examples", "gcc", "remote");
const chromium = process.env.CHROMIUM ||
  ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => fs.existsSync(p)) || "/usr/bin/chromium";
const NAMES = ["ship", "turret_left", "turret_right", "barrel", "asteroid_a", "asteroid_b"];

let games = [], game, gameOutput = "", url, browser, page;

// Starts the game on a free port; resolves with the explorer's address, read from its stderr.
function startGame(...extra) {
  return new Promise((resolve, reject) => {
    const game = spawn(example, ["3000", "0", ...extra], { stdio: ["ignore", "pipe", "pipe"] });
    games.push(game);
    let err = "";
    game.stdout.on("data", (d) => { gameOutput += d; });
    game.stderr.on("data", (d) => {
      err += d;
      const m = /explorer: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(err);
      if (m) resolve({ game, url: m[1] });
    });
    game.on("error", reject);
    game.on("exit", (code) => reject(new Error(`${example} exited (${code}) before serving: ${err}`)));
  });
}

// A JSON-RPC request from the test itself.
async function rpc(method, params) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const answer = await response.json();
  if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result;
}

async function entityNamed(name) {
  const rows = await rpc("ecs_sched.names");
  const row = rows.find((r) => r.name === name);
  assert.ok(row, `no entity named ${name}`);
  return row.entity;
}

// The labels of the tree's rows, in order.
function treeLabels() {
  return page.$$eval("#tree .node .label", (labels) => labels.map((l) => l.textContent));
}

before(async () => {
  ({ game, url } = await startGame());
  browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  page = await browser.newPage();
  await page.setViewport({ width: 1200, height: 640 });
  const problems = [];
  page.on("pageerror", (e) => problems.push(e.message));
  await page.goto(url, { waitUntil: "load" });
  assert.deepEqual(problems, []);
});

after(async () => {
  if (browser) await browser.close();
  for (const g of games) if (g !== game && g.exitCode === null) g.kill("SIGINT");
  if (game && game.exitCode === null) {
    const exited = new Promise((resolve) => game.on("exit", (code) => resolve(code)));
    game.kill("SIGINT");   // the game stops after its frame, and cleans up
    assert.equal(await exited, 0);
    assert.match(gameOutput, /ship\/turret_left\/barrel/);
  }
});

test("the tree shows the game's entities by name, children under their parents", async () => {
  await page.waitForFunction((names) => {
    const shown = [...document.querySelectorAll("#tree .node .label")].map((l) => l.textContent);
    return names.every((n) => shown.includes(n));
  }, { timeout: 10000 }, NAMES);
  const ship = await entityNamed("ship");
  const under = await page.$$eval(`#tree .node[data-entity="${ship}"] + ul .node .label`,
    (labels) => labels.map((l) => l.textContent));
  assert.deepEqual(under.sort(), ["barrel", "barrel", "turret_left", "turret_right"]);
});

test("the search box keeps the matches and their ancestors", async () => {
  await page.type("#search", "barrel");
  assert.deepEqual((await treeLabels()).sort(), ["barrel", "barrel", "ship", "turret_left", "turret_right"]);
  await page.$eval("#search", (s) => { s.value = ""; s.dispatchEvent(new Event("input")); });
  assert.equal((await treeLabels()).length, 7);
});

test("selecting an entity shows its components and their fields", async () => {
  const ship = await entityNamed("ship");
  await page.click(`#tree .node[data-entity="${ship}"]`);
  await page.waitForSelector('#components [data-component="Health"] input[data-path=".hp"]');
  const cards = await page.$$eval("#components [data-component]", (c) => c.map((x) => x.dataset.component));
  for (const name of ["Position", "Velocity", "Health"]) assert.ok(cards.includes(name), `${name} in ${cards}`);
  const hp = await page.$eval('#components [data-component="Health"] input[data-path=".hp"]', (i) => i.value);
  assert.equal(hp, "100");
  await page.screenshot({ path: path.join(root, "build", "browser", "explorer.png") });
  if (process.env.SCREENSHOT) fs.copyFileSync(path.join(root, "build", "browser", "explorer.png"), process.env.SCREENSHOT);
});

test("a field edited in the page reaches the world", async () => {
  const ship = await entityNamed("ship");
  const field = '#components [data-component="Health"] input[data-path=".hp"]';
  await page.click(field, { clickCount: 3 });
  await page.type(field, "42");
  await page.keyboard.press("Enter");
  let hp;
  for (let i = 0; i < 100; i++) {   // answered at the game's next frame (30 a second)
    const got = await rpc("world.get_components", { entity: ship, components: ["Health"], strict: true });
    hp = got.components ? got.components.Health.hp : got.Health.hp;
    if (hp === 42) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(hp, 42);
});

test("the page follows the world: a change made elsewhere shows at its next refresh", async () => {
  const ship = await entityNamed("ship");
  const field = '#components [data-component="Health"] input[data-path=".max"]';
  await rpc("world.mutate_components", { entity: ship, component: "Health", path: ".max", value: 250 });
  await page.waitForFunction((f) => document.querySelector(f).value === "250", { timeout: 5000 }, field);
});

test("opened with ?token=..., the page sends the token; the server refuses requests without it", async () => {
  const secured = await startGame("s3cret");
  const refused = await fetch(secured.url, { method: "POST", body: '{"jsonrpc": "2.0", "method": "rpc.discover"}' });
  assert.equal(refused.status, 401);
  const other = await browser.newPage();
  await other.goto(secured.url + "?token=s3cret", { waitUntil: "load" });
  await other.waitForFunction(() => [...document.querySelectorAll("#tree .node .label")]
    .some((l) => l.textContent === "asteroid_b"), { timeout: 10000 });
  await other.close();
});


test("the Schedules tab lists a schedule's systems in order with their timings", async () => {
  await page.click('#tabs button[data-tab="schedules"]');
  await page.waitForFunction(() => {
    const rows = [...document.querySelectorAll("#plan tbody tr")];
    const move = rows.find((r) => r.dataset.system === "move");
    return move && Number(move.querySelector(".runs").textContent) > 0 &&
      move.querySelector(".mean").textContent !== "";
  }, { timeout: 10000 });
  const order = await page.$$eval("#plan tbody tr", (rows) => rows.map((r) => r.dataset.system));
  const plan = await rpc("ecs_sched.schedule_plan", { schedule: "Update" });
  assert.deepEqual(order, plan.map((n) => n.name));
  await page.screenshot({ path: path.join(root, "build", "browser", "explorer-schedules.png") });
});

test("stepping from the page: switched on, one step runs the system at the cursor", async () => {
  const before = (await rpc("world.get_resources", { resource: "Clock" })).value.frames;
  await page.click("#stepping-on");
  await page.waitForFunction(() => /next: /.test(document.querySelector("#cursor").textContent), { timeout: 5000 });
  // held: the frame counter stops moving
  const held = (await rpc("world.get_resources", { resource: "Clock" })).value.frames;
  await new Promise((r) => setTimeout(r, 200));
  assert.equal((await rpc("world.get_resources", { resource: "Clock" })).value.frames, held);
  assert.ok(held >= before);
  // step until count_frames has run once more
  for (let i = 0; i < 4; i++) {
    const cursor = (await rpc("ecs_sched.get_stepping", { schedule: "Update" })).cursor;
    await page.click("#step-one");
    await page.waitForFunction((c) => !document.querySelector("#cursor").textContent.endsWith(" " + c) ||
      document.querySelectorAll("#plan tbody tr").length === 1, { timeout: 5000 }, cursor);
    if (cursor === "count_frames") break;
  }
  assert.equal((await rpc("world.get_resources", { resource: "Clock" })).value.frames, held + 1);
  await page.click("#stepping-on");
  await page.waitForFunction(() => document.querySelector("#cursor").textContent === "", { timeout: 5000 });
  assert.equal((await rpc("ecs_sched.get_stepping", { schedule: "Update" })).enabled, false);
});

test("the States tab shows a machine's value and queues the next one", async () => {
  await page.click('#tabs button[data-tab="states"]');
  const card = '#states [data-state="Weather"]';
  await page.waitForFunction((c) => {
    const v = document.querySelector(c + " .value");
    return v && v.textContent === "calm";
  }, { timeout: 5000 }, card);
  await page.select(card + " select", "storm");
  await page.click(card + " button");
  await page.waitForFunction((c) => document.querySelector(c + " .value").textContent === "storm",
    { timeout: 5000 }, card);
  const machines = await rpc("ecs_sched.list_states");
  assert.equal(machines.find((m) => m.name === "Weather").value, "storm");
});

test("the Trace tab records the next frame and draws it as a timeline", async () => {
  await page.click('#tabs button[data-tab="trace"]');
  await page.click("#record");
  await page.waitForSelector('#timeline svg rect[data-name="move"]', { timeout: 10000 });
  const cats = await page.$$eval("#timeline svg rect", (r) => [...new Set(r.map((x) => x.dataset.cat))]);
  for (const c of ["schedule", "system"]) assert.ok(cats.includes(c), `${c} in ${cats}`);
  assert.match(await page.$eval("#trace-status", (s) => s.textContent), /^frame \d+: .* events$/);
  await page.screenshot({ path: path.join(root, "build", "browser", "explorer-trace.png") });
});
