//! Embeds the catalogue: every `.ftl` file of every `locales/<lang>/`
//! directory at the repository's root, so that adding a file to a language
//! needs no change here.

use std::fmt::Write as _;
use std::path::Path;
use std::{env, fs};

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../locales");
    println!("cargo::rerun-if-changed={}", root.display());
    let mut langs: Vec<_> = fs::read_dir(&root)
        .expect("locales/ at the repository's root")
        .map(|e| e.expect("a readable locales/ entry").path())
        .filter(|p| p.is_dir())
        .collect();
    langs.sort();
    let mut out = String::from("/// Each language's `.ftl` files: (code, [(file name, text)]).\n");
    out.push_str("const SOURCES: &[(&str, &[(&str, &str)])] = &[\n");
    for dir in langs {
        println!("cargo::rerun-if-changed={}", dir.display());
        let code = dir.file_name().unwrap().to_string_lossy().into_owned();
        let mut files: Vec<_> = fs::read_dir(&dir)
            .expect("a readable language directory")
            .map(|e| e.expect("a readable catalogue file").path())
            .filter(|p| p.extension().is_some_and(|x| x == "ftl"))
            .collect();
        files.sort();
        let _ = writeln!(out, "    ({code:?}, &[");
        for f in files {
            println!("cargo::rerun-if-changed={}", f.display());
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            let path = f.canonicalize().expect("a catalogue file's path");
            let _ = writeln!(
                out,
                "        ({name:?}, include_str!({:?})),",
                path.display().to_string()
            );
        }
        out.push_str("    ]),\n");
    }
    out.push_str("];\n");
    let dest = Path::new(&env::var("OUT_DIR").unwrap()).join("catalogue.rs");
    fs::write(dest, out).expect("writing the catalogue's list");
}
