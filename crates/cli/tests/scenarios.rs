//! A person's own scenarios: a folder offered by `volley serve --scenarios DIR`, and the guide's
//! examples (`docs/scenarios.md`), each checked by the binary as a user runs it.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on what they did not expect

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod common;

/// A scratch directory of this test's own.
fn setup(name: &str) -> PathBuf {
    common::scratch(name)
}

/// A bundled scenario's text from the repository.
fn bundled(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(path)).unwrap()
}

#[test]
fn serve_offers_a_folder_s_scenarios_and_tells_where_a_bad_one_is() {
    let dir = setup("serve-folder");
    let folder = dir.join("battles");
    std::fs::create_dir_all(&folder).unwrap();
    let mill = bundled("scenarios/itchy-scratchy/hochdorf-mill.toml");
    let first = mill.lines().next().unwrap().to_string();
    std::fs::write(folder.join("my-mill.toml"), mill.replacen(&first, "name = \"My mill\"", 1)).unwrap();
    std::fs::write(folder.join("broken.toml"), "name = \"Broken\"\nruleset = \"itchy-scratchy\"\nturn_limt = 3\n")
        .unwrap();
    std::fs::write(folder.join("notes.txt"), "not a scenario").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_volley"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", "games.db", "--scenarios", "battles"])
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let offered = lines.next().unwrap().unwrap();
    let serving = lines.next().unwrap().unwrap();
    let addr = serving.split("http://").nth(1).and_then(|a| a.split('/').next()).unwrap().to_string();
    let mut s = std::net::TcpStream::connect(&addr).unwrap();
    s.write_all(b"GET /api/scenarios HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n").unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    child.kill().unwrap();
    let _ = child.wait();
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert_eq!(offered, "1 scenario from battles beside the bundled ones; 1 left out (above)");
    assert!(serving.starts_with("volley is serving on http://127.0.0.1:"), "{serving}");
    assert!(err.starts_with("battles/broken.toml:3:1: unknown field `turn_limt`"), "{err}");
    let body: serde_json::Value = serde_json::from_str(answer.split_once("\r\n\r\n").unwrap().1).unwrap();
    let names: Vec<&str> = body.as_array().unwrap().iter().filter_map(|c| c["name"].as_str()).collect();
    assert!(names.contains(&"my-mill") && names.contains(&"crossroads") && !names.contains(&"broken"), "{names:?}");

    let o = Command::new(env!("CARGO_BIN_EXE_volley"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", "games2.db", "--scenarios", "nowhere"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--scenarios nowhere: cannot read the folder"));
}

/// The ```toml blocks of a Markdown text, in order.
fn toml_blocks(markdown: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut open: Option<String> = None;
    for line in markdown.lines() {
        match &mut open {
            None if line.trim_start().starts_with("```toml") => open = Some(String::new()),
            None => {}
            Some(_) if line.trim_start().starts_with("```") => blocks.extend(open.take()),
            Some(b) => {
                b.push_str(line);
                b.push('\n');
            }
        }
    }
    assert!(open.is_none(), "a ```toml block is not closed");
    blocks
}

#[test]
fn every_example_of_the_scenario_guide_passes_volley_check_one_a_rule_set() {
    let dir = setup("guide-examples");
    let guide = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/scenarios.md")).unwrap();
    let blocks = toml_blocks(&guide);
    let mut files = Vec::new();
    let mut rulesets = Vec::new();
    for (i, b) in blocks.iter().enumerate() {
        let name = format!("example-{}.toml", i + 1);
        std::fs::write(dir.join(&name), b).unwrap();
        let ruleset = b.lines().find_map(|l| l.strip_prefix("ruleset = ")).unwrap_or("(none)");
        rulesets.push(ruleset.trim_matches('"').to_string());
        files.push(name);
    }
    rulesets.sort();
    assert_eq!(
        rulesets,
        ["blown-away", "der-alte-fritz", "en-avant", "itchy-scratchy", "old-fritz"],
        "one example a rule set"
    );
    let o = Command::new(env!("CARGO_BIN_EXE_volley")).arg("check").args(&files).current_dir(&dir).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}{out}", String::from_utf8_lossy(&o.stderr));
    for f in &files {
        assert!(out.contains(&format!("{f}: ok")), "{out}");
    }
}

#[test]
fn the_guide_s_blocks_are_found_and_a_bad_one_would_fail() {
    let blocks = toml_blocks("text\n```toml\na = 1\n```\n```sh\nx\n```\n  ```toml\nb = [\n```\n");
    assert_eq!(blocks, ["a = 1\n", "b = [\n"]);
    let dir = setup("guide-bad-example");
    std::fs::write(dir.join("bad.toml"), &blocks[1]).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_volley")).args(["check", "bad.toml"]).current_dir(&dir).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).starts_with("bad.toml:"));
}
