//! `volley play --agents person,...`: a person plays a side at the terminal, the binary driven
//! as a user drives it, with his answers piped in.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on what they did not expect

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

mod common;

/// A scratch directory of this test's own.
fn setup(name: &str) -> PathBuf {
    common::scratch(name)
}

/// Run `volley` in `dir` with `typed` as its input, to its end.
fn run(dir: &Path, args: &[&str], typed: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_volley"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(typed.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

#[test]
fn a_person_plays_a_few_decisions_a_bad_answer_is_asked_again_and_q_stops_with_the_log_kept() {
    let dir = setup("person-plays");
    // The French throw for the initiative (their only choice); then, at their moves, a number
    // too big and a word before a good number (2: General Souham's first move); then q.
    let o = run(
        &dir,
        &["play", "hochdorf-mill", "--agents", "person,heuristic", "--log", "battle.jsonl"],
        "1\n99\nforward\n2\nq\n",
    );
    let out = text(&o.stdout);
    assert!(o.status.success(), "{}\n{}", text(&o.stderr), out);
    assert!(
        out.starts_with(
            "The mill at Hochdorf, 1813 (itchy-scratchy), seed 1: French (person) against Prussians (heuristic)"
        ),
        "{out}"
    );
    // The position: turn and phase, his units, the enemy's, the account, the choices numbered.
    assert!(
        out.contains("=== The mill at Hochdorf, 1813: turn 1, both sides throw a D6 for the initiative ==="),
        "{out}"
    );
    assert!(out.contains("You are the French."), "{out}");
    assert!(
        out.contains(
            "Your units (French):\n  General Souham: General 1 SP; ready, facing north, in the south of the table"
        ),
        "{out}"
    );
    assert!(out.contains("The enemy you see (Prussians):\n  General Zieten:"), "{out}");
    assert!(out.contains("Objectives: the mill (held by nobody)"), "{out}");
    assert!(
        out.contains("Your choices:\n  1. throw for the initiative\nYour choice (1-1, ? for help, q to stop): "),
        "{out}"
    );
    assert!(
        out.contains("What happened since your last decision:\nTurn 1\n  Initiative: French 1 against Prussians 5"),
        "{out}"
    );
    assert!(out.contains("   2. move General Souham 1 area north"), "{out}");
    // The bad answers are told why and asked again; the good one is taken.
    assert!(out.contains("There is no choice 99: the choices are numbered from 1 to 57.\nYour choice (1-57"), "{out}");
    assert!(
        out.contains(
            "\"forward\" is not a choice: type a number from 1 to 57, ? for help, or q to stop.\nYour choice (1-57"
        ),
        "{out}"
    );
    assert!(out.contains("What happened since your last decision:\n  General Souham moves 1 area north"), "{out}");
    assert!(out.contains("You stopped the battle in turn 1, after 10 actions.\nResult: none: the battle was stopped after 1 turn, still going."), "{out}");
    assert_eq!(out.matches("Your choice (").count(), 5, "{out}");
    // The log ends where he stopped, and replays.
    let log = std::fs::read_to_string(dir.join("battle.jsonl")).unwrap();
    assert!(log.lines().next().unwrap().contains("\"agents\":[\"person\",\"heuristic\"]"), "{log}");
    let replay =
        Command::new(env!("CARGO_BIN_EXE_volley")).args(["replay", "battle.jsonl"]).current_dir(&dir).output().unwrap();
    assert!(replay.status.success(), "{}", text(&replay.stderr));
    assert!(text(&replay.stdout).contains("replay matches the recorded state hash"));
}

#[test]
fn help_is_shown_and_the_end_of_input_stops_the_battle_cleanly() {
    let dir = setup("person-help");
    let o = run(&dir, &["play", "hochdorf-mill", "--agents", "heuristic,person"], "?\n");
    let out = text(&o.stdout);
    assert!(o.status.success(), "{}\n{}", text(&o.stderr), out);
    assert!(out.contains("You are the Prussians."), "{out}");
    assert!(out.contains("  q   stop the battle here"), "{out}");
    assert!(out.contains("The input ended: the battle stops in turn 1"), "{out}");
    assert!(text(&o.stderr).is_empty(), "{}", text(&o.stderr));
}

#[test]
fn a_person_is_refused_where_computers_play_many_battles() {
    let dir = setup("person-refused");
    for args in [
        &["simulate", "hochdorf-mill", "--agents", "person,heuristic", "--runs", "1"][..],
        &["tournament", "hochdorf-mill", "--agents", "heuristic,person", "--runs", "1"],
        &["sweep", "hochdorf-mill", "--agents", "person,heuristic", "--set", "turn_limit=5", "--runs", "1"],
    ] {
        let o = run(&dir, args, "");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = text(&o.stderr);
        assert!(err.contains(&format!("`volley {}` plays many battles of computers", args[0])), "{err}");
        assert!(err.contains("--agents person,heuristic"), "{err}");
    }
    let o = run(&dir, &["play", "hochdorf-mill", "--agents", "person,heuristic", "--format", "json"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("--format json is for battles of computers alone"));
}
