use volley_blown_away::load;
use volley_scenario::Source;

#[test]
fn crossroads_loads() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../scenarios/blown-away/crossroads.toml")).unwrap();
    match load(&Source::new("crossroads.toml", text)) {
        Ok(b) => println!("{} units", b.units.len()),
        Err(e) => panic!("{e}"),
    }
}
