//! The profile catalogue: a path beats `./calibration/`, which beats the config folder, which
//! beats the built-in profiles; `linkup profiles` lists them from any folder, with a temporary
//! HOME, XDG_CONFIG_HOME and working folder standing in for a user's.

use std::path::{Path, PathBuf};

use linkup::catalogue::{BUILT_IN, Catalogue, CatalogueError, Source};

use crate::support::{Linkup, Scratch, scratch};

/// A profile of `rows` x 4 cells, so each place's copy can be told apart.
fn profile_text(rows: usize) -> String {
    format!(
        "[board]\nrows = {rows}\ncols = 4\norigin = [1.0, 2.0]\npitch = [30.0, 40.0]\ntile-size = [28.0, 38.0]\n"
    )
}

/// Writes `dir/NAME.toml` with a `rows`-row board.
fn write_profile(dir: &Path, name: &str, rows: usize) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, profile_text(rows)).unwrap();
    path
}

/// A catalogue over a temporary working `calibration/` and config folder.
struct Places {
    _root: Scratch,
    catalogue: Catalogue,
}

fn places() -> Places {
    let root = scratch();
    let catalogue = Catalogue {
        working: root.path().join("work/calibration"),
        config: Some(root.path().join("config/linkup")),
    };
    Places {
        _root: root,
        catalogue,
    }
}

#[test]
fn a_name_is_found_in_the_first_place_that_has_it() {
    let p = places();
    let config = p.catalogue.config.clone().unwrap();
    let in_config = write_profile(&config, "xshisen", 3);
    let found = p.catalogue.find("xshisen").unwrap();
    assert_eq!(found.source, Source::Config(in_config));
    assert_eq!(found.profile().unwrap().board.rows, 3);

    let in_working = write_profile(&p.catalogue.working, "xshisen", 5);
    let found = p.catalogue.find("xshisen").unwrap();
    assert_eq!(found.source, Source::Working(in_working));
    assert_eq!(found.profile().unwrap().board.rows, 5);
}

#[test]
fn a_shipped_name_falls_back_to_the_built_in_text() {
    let p = places();
    let found = p.catalogue.find("kshisen").unwrap();
    assert_eq!(found.source, Source::BuiltIn);
    let shipped = BUILT_IN.iter().find(|(n, _)| *n == "kshisen").unwrap().1;
    assert_eq!(found.text, shipped);
    assert_eq!(found.profile().unwrap().board.cols, 18);
}

#[test]
fn a_path_is_read_as_it_is() {
    let p = places();
    let elsewhere = write_profile(&p.catalogue.working.join("../other"), "mine", 7);
    let found = p.catalogue.find(elsewhere.to_str().unwrap()).unwrap();
    assert_eq!(found.name, "mine");
    assert_eq!(found.source, Source::Path(elsewhere.clone()));
    assert_eq!(found.profile().unwrap().board.rows, 7);

    let missing = elsewhere.with_file_name("missing.toml");
    let err = p.catalogue.find(missing.to_str().unwrap()).unwrap_err();
    assert!(matches!(err, CatalogueError::Read { .. }), "{err:?}");
    // The cause is printed once by an error chain (`linkup: {err:#}`).
    assert_eq!(
        format!("{:#}", anyhow::Error::from(err)),
        format!(
            "cannot read the profile {}: No such file or directory (os error 2)",
            missing.display()
        )
    );
}

#[test]
fn an_unknown_name_lists_the_places_looked_in() {
    let p = places();
    let err = p.catalogue.find("nethack").unwrap_err();
    let working = p.catalogue.working.join("nethack.toml");
    let config = p.catalogue.config.as_ref().unwrap().join("nethack.toml");
    assert_eq!(
        err.to_string(),
        format!(
            "no profile named `nethack`: looked for {}, {} and the built-in profiles \
             (kshisen, xshisen, xshisen-huge, xshisen-large); give a path, or run `linkup profiles`",
            working.display(),
            config.display()
        )
    );
}

#[test]
fn relative_templates_are_taken_from_the_profile_folder() {
    let p = places();
    let dir = &p.catalogue.working;
    std::fs::create_dir_all(dir).unwrap();
    let text = format!("templates = \"../templates/g\"\n{}", profile_text(2));
    std::fs::write(dir.join("g.toml"), text).unwrap();
    let profile = p.catalogue.find("g").unwrap().profile().unwrap();
    assert_eq!(profile.templates, Some(dir.join("../templates/g")));
}

#[test]
fn a_broken_user_profile_names_its_file_and_line() {
    let p = places();
    let config = p.catalogue.config.clone().unwrap();
    std::fs::create_dir_all(&config).unwrap();
    std::fs::write(config.join("bad.toml"), "[board]\nrows = \"x\"\n").unwrap();
    let err = p.catalogue.find("bad").unwrap().profile().unwrap_err();
    assert!(
        err.to_string()
            .starts_with(&format!("{}: line 2: ", config.join("bad.toml").display())),
        "{err}"
    );
}

#[test]
fn list_shows_each_name_once_with_the_places_it_hides() {
    let p = places();
    let config = p.catalogue.config.clone().unwrap();
    let working_x = write_profile(&p.catalogue.working, "xshisen", 2);
    let config_x = write_profile(&config, "xshisen", 2);
    let config_mine = write_profile(&config, "mine", 2);
    std::fs::write(config.join("notes.txt"), "not a profile").unwrap();
    let listed = p.catalogue.list().unwrap();
    let names: Vec<&str> = listed.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "kshisen",
            "mine",
            "xshisen",
            "xshisen-huge",
            "xshisen-large"
        ]
    );
    let x = &listed[2];
    assert_eq!(x.source, Source::Working(working_x));
    assert_eq!(x.shadows, [Source::Config(config_x), Source::BuiltIn]);
    assert_eq!(listed[1].source, Source::Config(config_mine));
    assert!(listed[1].shadows.is_empty());
    assert_eq!(listed[0].source, Source::BuiltIn);
}

#[test]
fn the_binary_lists_profiles_from_a_temporary_home_and_folder() {
    let root = scratch();
    let (home, work, xdg) = (
        root.path().join("home"),
        root.path().join("work"),
        root.path().join("xdg"),
    );
    write_profile(&home.join(".config/linkup"), "from-home", 2);
    write_profile(&xdg.join("linkup"), "from-xdg", 2);
    write_profile(&work.join("calibration"), "kshisen", 2);
    let run = |xdg_config_home: Option<&Path>| {
        let mut command = Linkup::new(["profiles"])
            .dir(&work)
            .env("HOME", &home)
            .env_remove("XDG_CONFIG_HOME");
        if let Some(dir) = xdg_config_home {
            command = command.env("XDG_CONFIG_HOME", dir);
        }
        let run = command.run();
        assert_eq!(run.code, Some(0), "{run:?}");
        run.stdout
    };
    let with_home = run(None);
    let lines: Vec<&str> = with_home.lines().skip(1).collect();
    let config = home.join(".config/linkup");
    assert_eq!(
        lines,
        [
            format!(
                "from-home      config folder   {}",
                config.join("from-home.toml").display()
            ),
            "kshisen        working folder  calibration/kshisen.toml; hides built in".to_string(),
            "xshisen        built in".to_string(),
            "xshisen-huge   built in".to_string(),
            "xshisen-large  built in".to_string(),
        ]
    );
    let with_xdg = run(Some(&xdg));
    assert!(with_xdg.contains("from-xdg "), "{with_xdg}");
    assert!(!with_xdg.contains("from-home"), "{with_xdg}");
}
