// volley in the browser: the router. Plain ES modules, no build step; each part of the page is a
// module of its own (js/): the first page, a game, its map, a replay, the umpire's desk.

import { el, post, keep, held, roleKey } from "./js/util.js";
import { showHome } from "./js/home.js";
import { showGame } from "./js/game.js";
import { showReplay } from "./js/replay.js";
import { showDesk } from "./js/desk.js";
import { showRules } from "./js/rules.js";

const main = document.getElementById("main");
let stop = () => {};

function route() {
  stop();
  stop = () => {};
  const hash = location.hash || "#/";
  const [path] = hash.slice(1).split("?");
  const parts = path.split("/").filter(Boolean);
  if (parts[0] === "game" && parts[1]) stop = showGame(main, parts[1]);
  else if (parts[0] === "join" && parts[1] && parts[2]) join(parts[1], parts[2]);
  else if (parts[0] === "seat" && parts[1] && parts[2] && parts[3]) {
    // A personal link: this seat's credential, carried in the fragment (never sent to a server),
    // kept in this browser; then the game, the link's credential gone from the address bar.
    keep(parts[1], (h) => { h.roles[decodeURIComponent(parts[2])] = decodeURIComponent(parts[3]); });
    location.replace(`#/game/${parts[1]}`);
  }
  else if (parts[0] === "replay" && parts[1]) stop = showReplay(main, parts[1], { play: parts[2] === "play" });
  else if (parts[0] === "desk" && parts[1]) showDesk(main, parts[1]);
  else if (parts[0] === "rules" && parts[1]) showRules(main, parts[1]);
  else showHome(main);
}
window.addEventListener("hashchange", route);

// An invitation opened: claim it (once; the seat is this browser's from now on) and play.
async function join(id, code) {
  main.replaceChildren(el("p", { class: "quiet" }, "Taking your seat…"));
  try {
    const c = await post(`/api/games/${id}/claim`, { invitation: code });
    keep(id, (h) => { h.roles[roleKey(c.role)] = c.token; });
    location.replace(`#/game/${id}`);
  } catch (e) {
    const mine = Object.keys(held(id).roles).length > 0;
    main.replaceChildren(el("p", { class: "error" }, e.status === 409
      ? "This invitation has been used already: a seat is taken by whoever opened it first."
      : `The invitation did not work: ${e.message}`),
    // The way back for a player who took the seat on another device or lost this browser's
    // record of it: the seat's own link, kept by whichever browser holds the seat.
    e.status === 409 && !mine ? el("p", { class: "quiet backin" },
      "If the seat is yours, open the game where you took it (the same browser), or, on that browser's game page, under Links, “Open your seat on another device” gives a link to open here.") : null,
    el("p", {}, el("a", { href: `#/game/${id}` }, mine ? "Go to the game" : "Watch the game"), " · ", el("a", { href: "#/" }, "All battles")));
  }
}

route();
