//! The `volley` binary, run as a user runs it: in a scratch directory, with files written there.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on what they did not expect

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::json;

/// A scratch directory of this test's own, and the binary to run in it.
struct Dir {
    path: PathBuf,
}

fn setup(name: &str) -> Dir {
    Dir { path: common::scratch(name) }
}

impl Dir {
    fn run(&self, args: &[&str]) -> Output {
        std::process::Command::new(env!("CARGO_BIN_EXE_volley")).args(args).current_dir(&self.path).output().unwrap()
    }

    fn write(&self, name: &str, text: &str) {
        std::fs::write(self.path.join(name), text).unwrap();
    }

    fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.path.join(name)).unwrap()
    }
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

fn json(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "{}", stderr(o));
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)))
}

/// A small battle that is over in a few turns: two Prussian units attack one Austrian unit
/// holding a mill.
const SKIRMISH: &str = r#"name = "Skirmish"
ruleset = "blown-away"
variant = "chance"
turn_limit = 16
at_turn_limit = { win = "Austrians" }
[table]
width = 48
depth = 30
[rules]
setup = "custom"
objectives_to_win = 1
objective_sides = ["Prussians"]
[[objectives]]
name = "the mill"
rect = [19, 20, 29, 25]
[[sides]]
name = "Prussians"
rear_edge = "south"
commander = { name = "Seydlitz", at = [24, 1] }
units = [
  { name = "IR 1", arm = "infantry", at = [20, 8] },
  { name = "Hussars", arm = "cavalry", at = [32, 8] },
]
[[sides]]
name = "Austrians"
rear_edge = "north"
commander = { name = "Laudon", at = [24, 29] }
units = [{ name = "IR Kaiser", arm = "infantry", at = [24, 22], facing = 180 }]
"#;

#[test]
fn play_is_deterministic_and_reports_every_side() {
    let d = setup("play_json");
    let a = d.run(&["play", "crossroads", "--seed", "7", "--format", "json"]);
    let b = d.run(&["play", "crossroads", "--seed", "7", "--format", "json"]);
    assert_eq!(a.stdout, b.stdout, "the same seed gives the same bytes");
    let c = d.run(&["play", "crossroads", "--seed", "8", "--format", "json"]);
    assert_ne!(json(&a)["state_hash"], json(&c)["state_hash"], "another seed, another battle");

    let r = json(&a);
    for key in ["scenario", "ruleset", "variant", "seed", "turns", "winner", "sides", "state_hash"] {
        assert!(r.get(key).is_some(), "missing {key}: {r}");
    }
    assert_eq!(r["ruleset"], "blown-away");
    assert_eq!(r["variant"], "chance");
    assert_eq!(r["seed"], 7);
    let sides = r["sides"].as_array().unwrap();
    assert_eq!(sides.len(), 2);
    for s in sides {
        let (men, killed) = (s["men_start"].as_f64().unwrap(), s["killed"].as_f64().unwrap());
        assert_eq!(men, 103.0, "Crossroads has 103 men a side");
        let pct = s["casualty_pct"].as_f64().unwrap();
        assert!((pct - (killed * 100.0 / men)).abs() < 0.06, "{s}");
    }
    let winner = &r["winner"];
    assert!(winner.is_null() || sides.iter().any(|s| &s["name"] == winner), "{winner}");
}

#[test]
fn a_logged_battle_replays_to_the_same_state() {
    let d = setup("replay");
    let played = d.run(&["play", "advance-guard", "--seed", "3", "--format", "json", "--log", "battle.jsonl"]);
    let hash = json(&played)["state_hash"].as_str().unwrap().to_string();
    let replayed = d.run(&["replay", "battle.jsonl"]);
    assert!(replayed.status.success(), "{}", stderr(&replayed));
    assert!(stdout(&replayed).contains(&format!("state_hash {hash}")), "{}", stdout(&replayed));

    // A log whose recorded end does not match is refused with exit code 1.
    let log = d.read("battle.jsonl");
    let tampered = log.replace(&format!("\"state_hash\":\"{hash}\""), "\"state_hash\":\"0123456789abcdef\"");
    assert_ne!(log, tampered);
    d.write("tampered.jsonl", &tampered);
    let o = d.run(&["replay", "tampered.jsonl"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("0123456789abcdef"), "{}", stderr(&o));

    // A log is checked, not only its end: every draw against the seed, the numbering of the
    // actions and the end's counts. Each of these changes is found, every time.
    let lines: Vec<&str> = log.lines().collect();
    let header: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    let seed = header["seed"].as_u64().unwrap();
    let mut found = 0;
    for k in 1..=20u64 {
        let other = lines[0].replace(&format!("\"seed\":{seed}"), &format!("\"seed\":{}", seed + k));
        d.write("seed.jsonl", &log.replacen(lines[0], &other, 1));
        let o = d.run(&["replay", "seed.jsonl"]);
        assert_eq!(o.status.code(), Some(1), "seed {}", seed + k);
        found += usize::from(stderr(&o).contains("the log's seed gives"));
    }
    assert_eq!(found, 20, "a changed seed is named as such");
    // Each draw in turn given another value it could have had (a die's next face).
    let (mut doctored, mut examined) = (0, 0);
    for (i, line) in lines.iter().enumerate().filter(|(_, l)| l.contains("\"value\":")).take(20) {
        examined += 1;
        let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
        let draw = &mut v["draws"][0];
        let (value, sides) = (draw["value"].as_u64().unwrap(), draw["sides"].as_u64().unwrap_or(2));
        draw["value"] = json!(value % sides + 1);
        let mut changed = lines.clone();
        let text = v.to_string();
        changed[i] = &text;
        d.write("draw.jsonl", &(changed.join("\n") + "\n"));
        let o = d.run(&["replay", "draw.jsonl"]);
        assert_eq!(o.status.code(), Some(1), "line {}: {}", i + 1, stdout(&o));
        doctored += usize::from(stderr(&o).contains("the log's seed gives"));
    }
    assert!(examined >= 5, "the battle drew only {examined} times");
    assert_eq!(doctored, examined, "{doctored} of {examined} changed draws named as such");
    // An action taken out, and an end that miscounts.
    let mut missing = lines.clone();
    missing.remove(2);
    d.write("missing.jsonl", &(missing.join("\n") + "\n"));
    let o = d.run(&["replay", "missing.jsonl"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("where action 2 should be"), "{}", stderr(&o));
    let end = lines.last().unwrap();
    let recount = end.replace("\"actions\":", "\"actions\":1");
    d.write("recount.jsonl", &log.replace(end, &recount));
    let o = d.run(&["replay", "recount.jsonl"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("but the log has"), "{}", stderr(&o));
    let turns = end.replace("\"turns\":", "\"turns\":9");
    d.write("turns.jsonl", &log.replace(end, &turns));
    let o = d.run(&["replay", "turns.jsonl"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("the log's end says turn 9"), "{}", stderr(&o));
    assert!(stdout(&replayed).contains("draws is what seed 3 gives"), "{}", stdout(&replayed));
    // With one draw or none, a changed seed cannot be found out: the replay says so.
    let draws = log.matches("\"purpose\":").count();
    assert_eq!(
        stdout(&replayed).contains("the seed cannot be checked"),
        draws <= 1,
        "{draws} draws: {}",
        stdout(&replayed)
    );

    // A signed log: the signature must hold, and be the key asked for.
    let key = volley_server::signing::Key::from_hex(&"2a".repeat(32)).unwrap();
    let signed = log.clone() + &volley_core::log::Log::<serde_json::Value>::signature_line(&key.sign(&log));
    d.write("signed.jsonl", &signed);
    let o = d.run(&["replay", "signed.jsonl", "--key", &key.public_hex()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("the signature holds"), "{}", stdout(&o));
    assert!(stdout(&o).contains("a key you trust"), "{}", stdout(&o));
    let o = d.run(&["replay", "signed.jsonl", "--key", &"00".repeat(32)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("not among those you trust"), "{}", stderr(&o));
    // Without a key to trust, a signature says nothing of who kept the game: refused, with the
    // key and its fingerprint, unless asked to replay it all the same.
    let fp = volley_server::signing::fingerprint(&key.public_hex()).unwrap();
    let o = d.run(&["replay", "signed.jsonl"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stderr(&o).contains("unknown key") && stderr(&o).contains(&fp), "{}", stderr(&o));
    let o = d.run(&["replay", "signed.jsonl", "--accept-unknown-key"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("unknown key") && stdout(&o).contains(&fp), "{}", stdout(&o));
    // A practice game's log made to read as a fair one and signed again by someone's own key.
    let forger = volley_server::signing::Key::from_hex(&"5c".repeat(32)).unwrap();
    let flipped = log.replacen("\"seed_chosen\":true", "\"seed_chosen\":false", 1);
    let forged = flipped.clone() + &volley_core::log::Log::<serde_json::Value>::signature_line(&forger.sign(&flipped));
    d.write("forged.jsonl", &forged);
    let o = d.run(&["replay", "forged.jsonl", "--trust", &key.public_hex()]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stderr(&o).contains("not among those you trust"), "{}", stderr(&o));
    assert_eq!(d.run(&["replay", "forged.jsonl"]).status.code(), Some(1));
    // The keys one trusts may be kept in a file, one a line.
    d.write("trusted-keys", &format!("# the club's server\n{}\n\n{}  # another\n", "00".repeat(32), key.public_hex()));
    let o = d.run(&["replay", "signed.jsonl", "--trust", "trusted-keys"]);
    assert!(o.status.success(), "{}", stderr(&o));
    d.write("bad-keys", "not a key\n");
    let o = d.run(&["replay", "signed.jsonl", "--trust", "bad-keys"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("bad-keys:1:1"), "{}", stderr(&o));
    d.write("resigned.jsonl", &signed.replacen("\"agents\":[", "\"agents\":[\"mcts\",", 1));
    let o = d.run(&["replay", "resigned.jsonl"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("the signature does not hold"), "{}", stderr(&o));
    let o = d.run(&["replay", "battle.jsonl", "--key", &key.public_hex()]);
    assert_eq!(o.status.code(), Some(1), "unsigned, but a key asked for");

    // A log that cannot be read is an input error (exit 2), with the line it failed on.
    d.write("garbled.jsonl", &log.replacen("\"type\":\"action\"", "\"type\":\"actoin\"", 1));
    let o = d.run(&["replay", "garbled.jsonl"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("garbled.jsonl: line 2"), "{}", stderr(&o));

    // A log of a rule set this build does not play is refused by name, before its actions.
    d.write("other.jsonl", &log.replacen("\"ruleset\":\"blown-away\"", "\"ruleset\":\"pike-and-shotte\"", 1));
    let o = d.run(&["replay", "other.jsonl"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("the log is of rule set \"pike-and-shotte\""), "{}", stderr(&o));
}

#[test]
fn a_replay_traces_every_piece_after_each_action() {
    let d = setup("trace");
    for (scenario, seed, marker) in [
        ("advance-guard", "3", "gun"),
        ("hochdorf-mill", "2", ""),
        ("attack-on-the-ridge", "1", "wagons"),
        ("the-village", "1", "general"),
        ("the-farm", "1", "headquarters"),
    ] {
        let log = format!("{scenario}.jsonl");
        let played = d.run(&["play", scenario, "--seed", seed, "--format", "json", "--log", &log]);
        let actions = json(&played)["actions"].as_u64().unwrap();
        let trace = format!("{scenario}.trace.jsonl");
        let o = d.run(&["replay", &log, "--trace", &trace]);
        assert!(o.status.success(), "{}", stderr(&o));
        let lines: Vec<serde_json::Value> = d.read(&trace).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(lines.len() as u64, actions + 1, "{scenario}: the start, then a line an action");
        // Line 0: the table as it stands before the first action.
        let table = &lines[0]["table"];
        assert!(table["width"].as_f64().unwrap() > 0.0 && table["sides"].as_array().unwrap().len() == 2, "{scenario}");
        assert!(lines[0].get("action").is_none() && lines[1].get("table").is_none(), "{scenario}");
        let logged: Vec<serde_json::Value> = d
            .read(&log)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .filter(|l: &serde_json::Value| l["type"] == "action")
            .collect();
        let mut told = 0;
        for (k, l) in lines.iter().enumerate() {
            assert_eq!(l["n"].as_u64(), Some(k as u64), "{scenario}");
            let pieces = l["pieces"].as_array().unwrap();
            assert!(!pieces.is_empty() && pieces.iter().all(|p| p["footprint"].is_object() && p["status"].is_string()));
            assert!(l["objectives"].is_array(), "{scenario}");
            if k > 0 {
                // The action and who took it, as the log has them; what happened, in words and as data.
                assert_eq!(l["action"], logged[k - 1]["action"], "{scenario} {k}");
                assert_eq!(l["by"], logged[k - 1]["by"], "{scenario} {k}");
                for e in l["events"].as_array().unwrap() {
                    assert!(!e["text"].as_str().unwrap().is_empty() && e["data"].is_object(), "{scenario} {k}: {e}");
                    told += 1;
                }
            }
        }
        assert!(told > 0, "{scenario}: the events are traced");
        // Models that are no unit (guns, officers, wagons, command groups) are traced with
        // their footprints.
        if !marker.is_empty() {
            let markers = lines[0]["markers"].as_array().unwrap();
            let m = markers.iter().find(|m| m["kind"] == marker).unwrap_or_else(|| panic!("{scenario}: no {marker}"));
            assert!(m["footprint"].is_object(), "{scenario}: {m}");
        }
        // Something moved: the first and last lines place the pieces differently.
        assert_ne!(lines[0]["pieces"], lines[lines.len() - 1]["pieces"], "{scenario}");
        // The last line tells how the battle ended, if it did.
        assert_eq!(lines[lines.len() - 1]["outcome"].is_object(), json(&played)["over"] == true, "{scenario}");
    }
    // A trace that cannot be written is an error that says so.
    let o = d.run(&["replay", "advance-guard.jsonl", "--trace", "no/such/dir/t.jsonl"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("cannot write no/such/dir/t.jsonl"), "{}", stderr(&o));
}

#[test]
fn check_accepts_the_bundled_scenarios_and_points_at_mistakes() {
    let d = setup("check");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/blown-away");
    let mut files: Vec<String> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path().to_string_lossy().into_owned())
        .filter(|p| p.ends_with(".toml"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 5);
    let args: Vec<&str> = std::iter::once("check").chain(files.iter().map(String::as_str)).collect();
    let o = d.run(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 5);

    // An unknown key, a wrong type, a unit off the table: each named with file:line:col.
    d.write("typo.toml", &SKIRMISH.replace("arm = \"cavalry\"", "arm = \"cavalry\", colour = \"blue\""));
    let o = d.run(&["check", "typo.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("typo.toml:22:"), "{}", stderr(&o));
    assert!(stderr(&o).contains("unknown field `colour`"), "{}", stderr(&o));

    d.write("type.toml", &SKIRMISH.replace("depth = 30", "depth = \"thirty\""));
    let o = d.run(&["check", "type.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("type.toml:8:9:"), "{}", stderr(&o));
    assert!(stderr(&o).contains("expected a number"), "{}", stderr(&o));

    d.write("off.toml", &SKIRMISH.replace("at = [32, 8]", "at = [47, 8]"));
    let o = d.run(&["check", "off.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("off.toml:22:3:"), "{}", stderr(&o));
    assert!(stderr(&o).contains("Hussars"), "{}", stderr(&o));

    // `play` refuses a broken file the same way, without playing.
    let o = d.run(&["play", "off.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty());

    // A missing file is a plain error.
    let o = d.run(&["check", "missing.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("missing.toml"), "{}", stderr(&o));
}

#[test]
fn bad_agents_and_seeds_are_refused_with_the_choices() {
    let d = setup("agents");
    let o = d.run(&["play", "crossroads", "--agents", "heuristic,clever"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("clever") && stderr(&o).contains("random"), "{}", stderr(&o));
    let o = d.run(&["play", "crossroads", "--agents", "heuristic"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("two"), "{}", stderr(&o));
    let o = d.run(&["play", "crossroads", "--seed", "-1"]);
    assert!(!o.status.success());
}

#[test]
fn schema_and_scenario_list() {
    let d = setup("schema");
    let schema = json(&d.run(&["schema", "scenario", "blown-away"]));
    assert!(schema["properties"]["sides"].is_object(), "{schema}");
    // Without a rule set: no rule set's schema given silently, but the question, exit 2.
    let o = d.run(&["schema", "scenario"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("which rule set") && stderr(&o).contains("old-fritz"), "{}", stderr(&o));
    assert!(stdout(&o).is_empty());
    assert!(schema["properties"]["rules"].is_object(), "{schema}");
    let list = stdout(&d.run(&["scenarios"]));
    for name in
        ["advance-guard", "crossroads", "fieldworks", "seven-years-war-chance", "seven-years-war-without-chance"]
    {
        assert!(list.contains(name), "{list}");
    }
}

#[test]
fn a_short_battle_reads_like_a_battle_report() {
    let d = setup("account");
    d.write("skirmish.toml", SKIRMISH);
    let o = d.run(&["play", "skirmish.toml", "--seed", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    insta::assert_snapshot!(stdout(&o));
}

#[test]
fn the_calculator_resolves_with_table_dice_and_gives_exact_odds() {
    let d = setup("calculator");
    d.write(
        "attack.json",
        r#"{ "weapon": "machine_guns", "range": 2, "target": "infantry", "target_in_cover": true, "general_with_target": true }"#,
    );
    // The author's third answer: 1 1 1 4 4 5 hits both the infantry in cover and its General.
    let o = d.run(&["resolve", "itchy-scratchy", "attack.json", "--draws", "1 1 1 4 4 5", "--format", "json"]);
    let r = json(&o);
    assert_eq!(r["outcome"]["target_hit"], true);
    assert_eq!(r["outcome"]["general_killed"], true);
    assert_eq!(r["lines"].as_array().unwrap().len(), 2);
    // Too few dice: says what is needed, exit 2.
    let o = d.run(&["resolve", "itchy-scratchy", "attack.json", "--draws", "1 1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("needs a d6"), "{}", stderr(&o));
    // Draws that are not draws are bad input like any other: exit 2, saying what was wrong.
    for (bad, says) in [("x", "--draws: "), ("-1", "--draws: "), ("1 1 0", "0 is not a possible result of a d6")] {
        let arg = format!("--draws={bad}");
        let o = d.run(&["resolve", "itchy-scratchy", "attack.json", &arg]);
        assert_eq!(o.status.code(), Some(2), "--draws {bad}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{}", stderr(&o));
    }
    // A situation cut short is reported at a column a person counts (1, not 0).
    d.write("cut.json", "{ \"weapon\": \"muskets\",\n");
    let o = d.run(&["resolve", "itchy-scratchy", "cut.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cut.json:2:1:"), "{}", stderr(&o));
    // The seeded generator: the same seed, the same dice.
    let a = d.run(&["resolve", "itchy-scratchy", "attack.json", "--seed", "9"]);
    let b = d.run(&["resolve", "itchy-scratchy", "attack.json", "--seed", "9"]);
    assert_eq!(a.stdout, b.stdout);

    let odds = json(&d.run(&["odds", "itchy-scratchy", "attack.json", "--format", "json"]));
    let outcomes = odds["outcomes"].as_array().unwrap();
    assert_eq!(outcomes.len(), 4);
    let sum: f64 = outcomes.iter().map(|o| o["probability"].as_f64().unwrap()).sum();
    assert!((sum - 1.0).abs() < 1e-12);

    // Blown Away: a queen against a 7, the cavalry on the flank of infantry that lost 2 already.
    d.write(
        "fight.json",
        r#"{ "variant": "chance", "attacker": { "arm": "cavalry", "quarter": "flank" },
             "defender": { "arm": "infantry", "killed_so_far": 2 } }"#,
    );
    let r = json(&d.run(&["resolve", "blown-away", "fight.json", "--draws", "Q 7", "--format", "json"]));
    assert_eq!(r["outcome"]["winner"], "attacker");
    assert_eq!(r["outcome"]["defender"]["run"], 3 + 1 + 4);
    let odds = json(&d.run(&["odds", "blown-away", "fight.json", "--format", "json"]));
    let sum: f64 = odds["outcomes"].as_array().unwrap().iter().map(|o| o["probability"].as_f64().unwrap()).sum();
    assert!((sum - 1.0).abs() < 1e-12);

    // A mistake in the situation file: file:line:col.
    d.write("typo.json", "{ \"weapon\": \"muskets\",\n  \"rnge\": 1 }");
    let o = d.run(&["odds", "itchy-scratchy", "typo.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("typo.json:2:"), "{}", stderr(&o));
    // A wrong type, in the words of the person who wrote the file.
    d.write("words.json", "{ \"weapon\": \"muskets\",\n  \"range\": \"two\" }");
    let o = d.run(&["odds", "itchy-scratchy", "words.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("words.json:2:"), "{}", stderr(&o));
    assert!(stderr(&o).contains("expected a whole number"), "{}", stderr(&o));
    // A number too big for its field: the range it must lie in.
    d.write("big.json", "{ \"weapon\": \"muskets\",\n  \"range\": 300, \"target\": \"infantry\" }");
    let o = d.run(&["odds", "itchy-scratchy", "big.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("big.json:2:"), "{}", stderr(&o));
    assert!(stderr(&o).contains("integer `300`, expected a whole number from 0 to 255"), "{}", stderr(&o));
    // An impossible situation: why.
    d.write("far.json", r#"{ "weapon": "muskets", "range": 3, "target": "infantry" }"#);
    let o = d.run(&["odds", "itchy-scratchy", "far.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("out of range"), "{}", stderr(&o));
}

#[test]
fn each_rule_set_describes_its_situation() {
    let d = setup("situation_schema");
    let is = json(&d.run(&["schema", "situation", "itchy-scratchy"]));
    for field in ["weapon", "range", "target", "target_in_cover", "general_with_attacker", "general_with_target"] {
        assert!(is["properties"][field].is_object(), "{field}: {is}");
    }
    let ba = json(&d.run(&["schema", "situation", "blown-away"]));
    assert!(ba["properties"]["attacker"].is_object(), "{ba}");
    let o = d.run(&["schema", "situation"]);
    assert!(!o.status.success());
}

#[test]
fn itchy_scratchy_battles_play_replay_and_report_strength_points() {
    let d = setup("itchy");
    let a = json(&d.run(&["play", "hochdorf-mill", "--seed", "4", "--format", "json", "--log", "mill.jsonl"]));
    assert_eq!(a["ruleset"], "itchy-scratchy");
    assert!(a["variant"].is_null());
    let sides = a["sides"].as_array().unwrap();
    assert_eq!(sides[0]["measure"], "strength points");
    assert_eq!(sides[0]["men_start"], 18, "three battalions of 4, a battery of 2, cavalry of 3, a General");
    let replayed = d.run(&["replay", "mill.jsonl"]);
    assert!(replayed.status.success(), "{}", stderr(&replayed));
    assert!(stdout(&replayed).contains(a["state_hash"].as_str().unwrap()));
    let text = stdout(&d.run(&["play", "elands-ridge", "--seed", "2"]));
    assert!(text.starts_with("Elands Ridge, 1899 (itchy-scratchy), seed 2"), "{text}");
    assert!(text.contains("Initiative:") && text.contains(" attack "), "{text}");
    assert!(text.lines().last().unwrap().starts_with("Casualties: British"), "{text}");

    // A grid scenario's mistakes are pointed at too.
    let bad = r#"name = "bad"
ruleset = "itchy-scratchy"
[table]
width = 6
depth = 6
[[sides]]
name = "A"
rear_edge = "south"
commander = { name = "a", at = [0, 0] }
units = [{ name = "x", kind = "infantry", at = [9, 1] }]
[[sides]]
name = "B"
rear_edge = "north"
commander = { name = "b", at = [0, 5] }
units = [{ name = "y", kind = "infantry", at = [1, 4], weapon = "muskets" }, { name = "z", kind = "transport", at = [2, 4], weapon = "muskets" }]
"#;
    d.write("bad.toml", bad);
    let o = d.run(&["check", "bad.toml"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("bad.toml:10:10:") && e.contains("off the 6 by 6 grid"), "{e}");
    assert!(e.contains("bad.toml:15:") && e.contains("carry no weapon"), "{e}");
    let schema = json(&d.run(&["schema", "scenario", "itchy-scratchy"]));
    assert!(schema["$defs"]["UnitSpec"]["properties"]["kind"].is_object(), "{schema}");
}

#[test]
fn old_fritz_close_combats_resolve_and_have_exact_odds() {
    let d = setup("old_fritz");
    d.write(
        "combat.json",
        r#"{ "attacker": { "arm": "cavalry", "cavalry": "cuirassiers", "quality": "B", "figures": 10 },
             "defender": { "arm": "infantry", "quality": "D", "figures": 12, "greens": 1 } }"#,
    );
    // Cuirassiers 7, infantry 4: the cavalry's additions +4 (two grades) -2 (against infantry)
    // -1 (outnumbered); the infantry's -3 for its green.
    let r = json(&d.run(&["resolve", "old-fritz", "combat.json", "--draws", "7 4 6", "--format", "json"]));
    assert_eq!(r["table"], "cavalry_vs_infantry");
    assert_eq!(r["attacker"]["total"], 7 + 4 - 2 - 1);
    assert_eq!(r["defender"]["total"], 4 - 3);
    assert_eq!(r["attacker"]["band"], "plus4");
    // -7: withdraw (the run-away result instead if the cavalry pursues, which its pursuit test
    // decides: thrown after the combat's dice, 6 -1 for quality B, 2 or more: under control).
    assert_eq!(r["defender"]["reaction"], "withdraw");
    assert_eq!(r["attacker"]["pursuit_test"], true);
    assert_eq!(r["attacker"]["pursuit"]["total"], 5);
    assert_eq!(r["attacker"]["pursuit"]["under_control"], true);
    let odds = json(&d.run(&["odds", "old-fritz", "combat.json", "--format", "json"]));
    let sum: f64 = odds["outcomes"].as_array().unwrap().iter().map(|o| o["probability"].as_f64().unwrap()).sum();
    assert!((sum - 1.0).abs() < 1e-12);
    let schema = json(&d.run(&["schema", "situation", "old-fritz"]));
    assert!(schema["properties"]["attacker"].is_object());
}

#[test]
fn old_fritz_battles_play_replay_and_point_at_mistakes() {
    let d = setup("old-fritz-battle");
    let a = json(&d.run(&["play", "attack-on-the-ridge", "--seed", "3", "--format", "json", "--log", "ridge.jsonl"]));
    assert_eq!(a["ruleset"], "old-fritz");
    let sides = a["sides"].as_array().unwrap();
    assert_eq!(sides[0]["measure"], "figures");
    // 12 battalions of 12, two regiments of 8, a battery of 6 guns.
    assert_eq!(sides[0]["men_start"], 12 * 12 + 2 * 8 + 6);
    let replayed = d.run(&["replay", "ridge.jsonl"]);
    assert!(replayed.status.success(), "{}", stderr(&replayed));
    assert!(stdout(&replayed).contains(a["state_hash"].as_str().unwrap()));
    let text = stdout(&d.run(&["play", "mittelhof", "--seed", "2"]));
    assert!(text.starts_with("Mittelhof, 1758 (old-fritz), seed 2"), "{text}");
    assert!(text.contains("takes effect") && text.contains("close combat, "), "{text}");
    assert!(text.lines().last().unwrap().starts_with("Casualties: Prussians"), "{text}");
    let list = stdout(&d.run(&["scenarios"]));
    assert!(list.contains("attack-on-the-ridge") && list.contains("mittelhof"), "{list}");
    let schema = json(&d.run(&["schema", "scenario", "old-fritz"]));
    assert!(schema["$defs"]["WingSpec"]["properties"]["order"].is_object(), "{schema}");

    let bad = r#"name = "bad"
ruleset = "old-fritz"
[table]
width = 48
depth = 48
[[rules.wings]]
side = "A"
name = "left"
general = "a"
order = { kind = "attack", at = [10, 99] }
[[sides]]
name = "A"
rear_edge = "south"
commander = { name = "a", at = [0, 0] }
units = [{ name = "x", kind = "line_infantry", wing = "right", quality = "C", at = [9, 1] }]
[[sides]]
name = "B"
rear_edge = "north"
commander = { name = "b", at = [0, 5] }
units = [{ name = "y", kind = "medium_guns", wing = "b", quality = "D", at = [1, 44], figures = 8 }]
"#;
    d.write("bad.toml", bad);
    let o = d.run(&["check", "bad.toml"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("off the table"), "{e}");
    assert!(e.contains("bad.toml:15:") && e.contains("wing \"right\" is not one of A's wings"), "{e}");
    assert!(e.contains("side \"B\" has no wing"), "{e}");
    assert!(e.contains("bad.toml:20:") && e.contains("six guns or fewer"), "{e}");
}

/// One blocking HTTP request with `Connection: close` (and a credential, if given): the status
/// and the JSON body.
fn http(addr: &str, method: &str, path: &str, token: Option<&str>, body: &str) -> (u16, serde_json::Value) {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: test\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let status = out.split(' ').nth(1).unwrap().parse().unwrap();
    let json = out.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, serde_json::from_str(json).unwrap_or(serde_json::Value::Null))
}

/// A running `volley serve`, killed when dropped (even when a test fails half-way).
struct Serving(std::process::Child);

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Start `volley serve` on a free port with the database `db`; returns the process and address.
fn serve(d: &Dir, db: &str) -> (Serving, String) {
    use std::io::BufRead;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_volley"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", db])
        .current_dir(&d.path)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line.split("http://").nth(1).and_then(|r| r.split('/').next()).unwrap().to_string();
    (Serving(child), addr)
}

#[test]
fn a_killed_server_loses_no_acknowledged_action() {
    let d = setup("serve-kill");
    let (server, addr) = serve(&d, "games.db");
    let body =
        r#"{"scenario": "attack-on-the-ridge", "players": ["human", "human"], "seed": 9, "creator": "hot_seat"}"#;
    let (status, g) = http(&addr, "POST", "/api/games", None, body);
    assert_eq!(status, 200, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let tokens: Vec<String> =
        g["credentials"].as_array().unwrap().iter().map(|s| s["token"].as_str().unwrap().into()).collect();
    let order = r#"{"order": {"wing": 0, "order": {"kind": "attack", "at": [36, 36]}}}"#;
    for (token, action) in [(&tokens[0], order), (&tokens[0], r#""end_orders""#), (&tokens[1], r#""end_orders""#)] {
        let path = format!("/api/games/{id}/actions");
        let (status, r) = http(&addr, "POST", &path, Some(token), &format!(r#"{{"action": {action}}}"#));
        assert_eq!(status, 200, "{r}");
    }
    let (_, before) = http(&addr, "GET", &format!("/api/games/{id}"), Some(&tokens[0]), "");
    // Killed outright: no shutdown, nothing flushed on the way out.
    drop(server);

    let (_server, addr) = serve(&d, "games.db");
    // A second server on the same games is refused: the two would go different ways.
    let second = d.run(&["serve", "--addr", "127.0.0.1:0", "--db", "games.db"]);
    assert_eq!(second.status.code(), Some(1));
    assert!(stderr(&second).contains("another server is using games.db"), "{}", stderr(&second));
    let (status, after) = http(&addr, "GET", &format!("/api/games/{id}"), Some(&tokens[0]), "");
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["actions"], 3);
    assert_eq!(after["view"], before["view"]);
    assert_eq!(after["log"], before["log"]);
    assert!(after["log"].to_string().contains("attack the enemy at the ridge"), "{}", after["log"]);
}

#[test]
fn simulate_sums_up_battles_that_play_replays_one_by_one() {
    let d = setup("simulate");
    let o = d.run(&["simulate", "hochdorf-mill", "--runs", "30", "--seed", "4", "--jobs", "2", "--out", "out"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.starts_with("The mill at Hochdorf, 1813: 30 battles"), "{text}");
    for f in ["summary.json", "battles.csv", "casualties.svg", "length.svg", "wins.svg"] {
        assert!(d.path.join("out").join(f).exists(), "{f}");
    }
    assert!(d.read("out/wins.svg").starts_with("<svg"));
    // The same master seed, one thread: the same summary, byte for byte.
    let one = d.run(&["simulate", "hochdorf-mill", "--runs", "30", "--seed", "4", "--jobs", "1", "--format", "json"]);
    assert_eq!(stdout(&one).trim(), d.read("out/summary.json").trim());
    let summary: serde_json::Value = serde_json::from_str(&d.read("out/summary.json")).unwrap();
    let wins = summary["sides"][0]["wins"].as_u64().unwrap() + summary["sides"][1]["wins"].as_u64().unwrap();
    assert_eq!(wins + summary["draws"].as_u64().unwrap(), 30);
    // A battle's row is what `volley play --seed` gives for its seed.
    let csv = d.read("out/battles.csv");
    let row: Vec<&str> = csv.lines().nth(3).unwrap().split(',').collect();
    let played = json(&d.run(&["play", "hochdorf-mill", "--seed", row[1], "--format", "json"]));
    assert_eq!(played["turns"].to_string(), row[3]);
    assert_eq!(played["sides"][0]["killed"].to_string(), row[6], "{row:?}");
    let winner = played["winner"].as_str().map(|w| format!("\"{w}\"")).unwrap_or_default();
    assert_eq!(winner, row[2]);
    let bad = d.run(&["simulate", "hochdorf-mill", "--agents", "heuristic,wizard"]);
    assert!(!bad.status.success() && stderr(&bad).contains("unknown agent \"wizard\""), "{}", stderr(&bad));
}

#[test]
fn sweep_changes_one_value_and_names_a_bad_path() {
    let d = setup("sweep");
    let o = d.run(&["sweep", "hochdorf-mill", "--set", "turn_limit=2,10", "--runs", "20", "--out", "sw"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("turn_limit at 2 values, 20 battles each"), "{text}");
    let rows: serde_json::Value = serde_json::from_str(&d.read("sw/sweep.json")).unwrap();
    assert_eq!(rows[0]["value"], "2");
    // With a limit of two turns no battle lasts longer; with ten they do.
    let turns = |i: usize, k: &str| rows[i]["summary"]["turns"][k].as_f64().unwrap();
    assert!(turns(0, "max") <= 2.0, "{}", rows[0]["summary"]["turns"]);
    assert!(turns(1, "mean") > 2.0, "{}", rows[1]["summary"]["turns"]);
    assert!(d.read("sw/wins-side0.svg").starts_with("<svg"));
    let bad = d.run(&["sweep", "hochdorf-mill", "--set", "sides.0.units.99.sp=3", "--runs", "2"]);
    assert!(!bad.status.success());
    assert!(stderr(&bad).contains("--set sides.0.units.99.sp: sides.0.units has 5 entries"), "{}", stderr(&bad));
    // A value the rules refuse is told at its own line and column of the file as written (the
    // file is edited in place): hochdorf-mill.toml has `turn_limit = 10` on line 11.
    let bad = d.run(&["sweep", "hochdorf-mill", "--set", "turn_limit=0", "--runs", "2"]);
    assert!(stderr(&bad).contains("(turn_limit = 0):11:14: turn_limit must be at least 1"), "{}", stderr(&bad));
    // The same value twice is refused; a list is one value.
    let bad = d.run(&["sweep", "hochdorf-mill", "--set", "turn_limit=3,3.0,3", "--runs", "2"]);
    assert!(stderr(&bad).contains("turn_limit: 3 and 3 are the same value"), "{}", stderr(&bad));
    let bad = d.run(&["sweep", "hochdorf-mill", "--set", "sides.0.units.1.at=[999, 999]", "--runs", "2"]);
    assert!(stderr(&bad).contains("(sides.0.units.1.at = [999, 999])"), "{}", stderr(&bad));
    // A file that does not load as written is told as `volley check` tells it, before any value.
    d.write("broken.toml", "name = \"x\"\nruleset = \"old-fritz\"\nturn_limit = 0\n");
    let bad = d.run(&["sweep", "broken.toml", "--set", "turn_limit=5", "--runs", "2"]);
    assert!(stderr(&bad).contains("broken.toml:"), "{}", stderr(&bad));
    assert!(!stderr(&bad).contains("turn_limit = 5"), "{}", stderr(&bad));
}

#[test]
fn generate_lays_copies_side_by_side_and_refuses_what_will_not_load() {
    let d = setup("generate");
    let o = d.run(&["generate", "mittelhof", "--times", "3", "--out", "big.toml"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = d.read("big.toml");
    assert!(text.contains("width = 288"), "three tables wide");
    assert!(text.contains("IR 5 Braunschweig #3"), "names numbered");
    let o = d.run(&["check", "big.toml"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // It plays: the tournament's bookkeeping counts every battle.
    let o = d.run(&[
        "tournament",
        "big.toml",
        "--agents",
        "random,heuristic",
        "--runs",
        "2",
        "--no-mirrors",
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let t: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(t.as_array().map(Vec::len), Some(1), "one pairing without mirrors");
    let n = |k: &str| t[0][k].as_u64().unwrap();
    assert_eq!(n("a_wins") + n("b_wins") + n("draws"), 4);
    // Crossroads' encounter set-up fixes the table: the copies do not load, and it says why.
    let o = d.run(&["generate", "crossroads", "--times", "2"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("does not load") && stderr(&o).contains("8-foot table"), "{}", stderr(&o));
    // Too many copies for the largest grid: the problem is named first, the repeats are counted.
    let o = d.run(&["generate", "elands-ridge", "--times", "20"]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(err.contains("20 copies of") && err.contains("found 240 by 10"), "{err}");
    assert!(err.lines().count() <= 8 && err.contains("more"), "{err}");
}

#[test]
fn serve_says_plainly_why_it_cannot_start() {
    let d = setup("serve-errors");
    let o = d.run(&["serve", "--addr", "nonsense", "--db", "games.db"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("cannot listen on nonsense: invalid socket address"), "{}", stderr(&o));
    let o = d.run(&["serve", "--db", "no/such/dir/games.db"]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(
        e.contains("cannot open the game store no/such/dir/games.db")
            && e.contains("unable to open the file: No such file"),
        "{e}"
    );
}

#[test]
fn a_battle_nothing_ends_is_stopped_and_shown_as_far_as_it_went() {
    let d = setup("no-end");
    // Two battalions with an unbridged river between them and no turn limit: only a rout could
    // end the battle, and neither can reach the other.
    let text = r#"name = "No end"
ruleset = "blown-away"
variant = "chance"
[table]
width = 48
depth = 48
[rules]
setup = "custom"
objectives_to_win = 0
rout_below = 0.5
[[terrain]]
kind = "river"
rect = [0, 20, 48, 28]
[[sides]]
name = "Prussians"
rear_edge = "south"
commander = { name = "Fritz", at = [24, 2] }
units = [{ name = "IR 1", arm = "infantry", at = [24, 10] }]
[[sides]]
name = "Austrians"
rear_edge = "north"
commander = { name = "Daun", at = [24, 46] }
units = [{ name = "IR 2", arm = "infantry", at = [24, 38] }]
"#;
    d.write("no-end.toml", text);
    let o = d.run(&["play", "no-end.toml", "--seed", "3", "--max-actions", "200", "--log", "no-end.log"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).contains("Result: none: the battle was stopped after"), "{}", stdout(&o));
    assert!(stderr(&o).contains("stopped after 200 actions") && stderr(&o).contains("turn_limit"), "{}", stderr(&o));
    // The log of the battle so far is kept, and replays.
    let o = d.run(&["replay", "no-end.log"]);
    assert!(o.status.success() && stdout(&o).contains("matches"), "{}{}", stdout(&o), stderr(&o));
    // As JSON, the report says it is not over.
    let o = d.run(&["play", "no-end.toml", "--seed", "3", "--max-actions", "200", "--format", "json"]);
    let rep: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!((rep["over"].clone(), rep["actions"].clone()), (serde_json::json!(false), serde_json::json!(200)));
}

#[test]
fn every_input_error_exits_2_and_says_where() {
    let d = setup("input-errors");
    // A scenario that is not UTF-8: the line and column of the first bad byte, for every command.
    let mut bytes = b"name = \"x\"\nruleset = \"old-fritz\"\ndescription = \"caf".to_vec();
    bytes.extend([0xe9, b'"', b'\n']);
    std::fs::write(d.path.join("latin1.toml"), &bytes).unwrap();
    for args in
        [vec!["check", "latin1.toml"], vec!["play", "latin1.toml"], vec!["simulate", "latin1.toml", "--runs", "2"]]
    {
        let o = d.run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("latin1.toml:3:19: not UTF-8 text (byte 0xe9)"), "{args:?}: {}", stderr(&o));
    }
    // A situation that is not UTF-8, and one that is missing.
    std::fs::write(d.path.join("s.json"), [b'{', 0xff, b'}']).unwrap();
    let o = d.run(&["odds", "old-fritz", "s.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("s.json:1:2: not UTF-8"), "{}", stderr(&o));
    let o = d.run(&["play", "no-such-file.toml"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = d.run(&["play", "crossroads", "--agents", "heuristic"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // A huge value makes a short error.
    let huge = format!(
        "name = \"x\"\nruleset = \"old-fritz\"\n[table]\nwidth = 72\ndepth = 48\nunits = \"{}\"\n",
        "y".repeat(1_000_000)
    );
    d.write("huge.toml", &huge);
    let o = d.run(&["check", "huge.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).len() < 2_000, "{} bytes of error", stderr(&o).len());
}

#[test]
fn a_situation_the_rules_refuse_is_pointed_at_the_field() {
    let d = setup("situation-field");
    d.write(
        "zero.json",
        "{ \"attacker\": { \"arm\": \"infantry\", \"quality\": \"C\", \"figures\": 12 },\n  \"defender\": { \"arm\": \"infantry\", \"quality\": \"C\", \"figures\": 0 } }",
    );
    for cmd in ["odds", "resolve"] {
        let o = d.run(&[cmd, "old-fritz", "zero.json"]);
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains("zero.json:2:52: defender.figures: the defender has no figures"), "{}", stderr(&o));
    }
    d.write("far.json", "{ \"weapon\": \"muskets\",\n  \"range\": 3, \"target\": \"infantry\" }");
    let o = d.run(&["odds", "itchy-scratchy", "far.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("far.json:2:3: range: "), "{}", stderr(&o));
    // A refusal about no one field is put at the file's start.
    d.write("walls.json", r#"{ "variant": "chance", "attacker": { "arm": "cavalry" }, "defender": { "arm": "infantry", "cover": "soft" } }"#);
    let o = d.run(&["odds", "blown-away", "walls.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("walls.json:1:1: cavalry may not fight"), "{}", stderr(&o));
}

#[test]
fn der_alte_fritz_has_its_calculator_and_its_scenarios() {
    let d = setup("daf-calculator");
    d.write(
        "volley.json",
        r#"{"volley": {"firer": {"type": "musketeers", "firing": 24},
            "target": {"type": "musketeers", "figures": 24, "figures_per_stand": 4, "formation": "line"}}}"#,
    );
    let o = d.run(&["resolve", "der-alte-fritz", "volley.json", "--draws", "1 5 6 9 3 10 4 9"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("chart C (hit on 5 or under): d10 1 5 6 9 3 10 -> 3 hits"), "{}", stdout(&o));
    assert!(stdout(&o).contains("3 hits, shaken"), "{}", stdout(&o));
    let odds = json(&d.run(&["odds", "der-alte-fritz", "volley.json", "--format", "json"]));
    let total: f64 = odds["outcomes"].as_array().unwrap().iter().map(|o| o["probability"].as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-9, "{total}");
    assert!(json(&d.run(&["schema", "situation", "der-alte-fritz"]))["oneOf"].is_array());
    let schema = json(&d.run(&["schema", "scenario", "der-alte-fritz"]));
    assert!(schema["properties"]["sides"].is_object(), "{schema}");
    assert!(serde_json::to_string(&schema).unwrap().contains("figures_per_stand"));
    let o = d.run(&["schema", "scenario", "no-such-rules"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("der-alte-fritz"), "the rule sets are listed: {}", stderr(&o));
    // Its battles play in the terminal, and their logs replay.
    let o = d.run(&["play", "the-village", "--seed", "3", "--log", "v.jsonl"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("initiative: Prussians"), "{}", stdout(&o));
    let o = d.run(&["replay", "v.jsonl"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("replay matches the recorded state hash"), "{}", stdout(&o));
}

#[test]
fn a_device_a_folder_or_a_huge_file_is_refused_before_it_is_read() {
    let d = setup("not-a-file");
    // A sparse file of 17 MiB: nothing written, but larger than a scenario may be.
    let huge = d.path.join("huge.toml");
    std::fs::File::create(&huge).unwrap().set_len(17 << 20).unwrap();
    let folder = d.path.join("a-folder.toml");
    std::fs::create_dir_all(&folder).unwrap();
    let cases: [(&[&str], &str); 5] = [
        (&["check", "/dev/zero"], "not a regular file"),
        (&["check", folder.to_str().unwrap()], "not a regular file"),
        (&["check", huge.to_str().unwrap()], "larger than the 16 MiB"),
        (&["odds", "old-fritz", "/dev/zero"], "not a regular file"),
        (&["replay", "/dev/zero"], "not a regular file"),
    ];
    for (args, says) in cases {
        let o = d.run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
}
