//! `tripoley site DIR`: the web app as static files that any static host
//! serves (a folder on GitHub Pages, `python3 -m http.server`), with no
//! server at all: games against bots, pass-and-play, hints, replays and the
//! analysis run in the browser, and the page installs as an app that works
//! offline.
//!
//! A folder is written only if it is new, empty, or a site this command
//! wrote before (it holds [`MARK`]): nobody's files are overwritten.

use std::fs;
use std::path::{Path, PathBuf};

use crate::Failure;

/// The file that marks a folder as a site written here.
const MARK: &str = "tripoley-site.txt";

/// Arguments of `tripoley site`.
#[derive(clap::Args)]
pub struct Args {
    /// The folder to write the site into (made if it does not exist).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
}

/// Writes the site into `args.dir`.
pub fn run(args: &Args) -> Result<(), Failure> {
    if !tripoley_server::web::HAS_WASM {
        return Err(Failure {
            message: "this build of tripoley has no offline app: run scripts/build-wasm, \
                      then build tripoley again"
                .into(),
            code: 1,
        });
    }
    let dir = &args.dir;
    check_folder(dir)?;
    let files = tripoley_server::web::site_files();
    for (path, body) in &files {
        let to = dir.join(path);
        if let Some(parent) = to.parent() {
            fs::create_dir_all(parent).map_err(|e| cannot("make", parent, &e))?;
        }
        fs::write(&to, body).map_err(|e| cannot("write", &to, &e))?;
    }
    let mark = dir.join(MARK);
    fs::write(
        &mark,
        "A static copy of the Tripoley web app, written by `tripoley site`.\n\
         Serve this folder with any static web server; `tripoley site` may write it again.\n",
    )
    .map_err(|e| cannot("write", &mark, &e))?;
    let bytes: usize = files.iter().map(|(_, b)| b.len()).sum();
    println!(
        "wrote {} files ({} KB) to {}: serve the folder with any static web server, \
         for example: python3 -m http.server --directory {}",
        files.len() + 1,
        bytes.div_ceil(1024),
        dir.display(),
        dir.display()
    );
    Ok(())
}

/// Refuses a folder that holds anything but a site written here.
fn check_folder(dir: &Path) -> Result<(), Failure> {
    match fs::read_dir(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(cannot("read", dir, &e)),
        Ok(mut entries) => {
            if entries.next().is_none() || dir.join(MARK).is_file() {
                Ok(())
            } else {
                Err(Failure::usage(format!(
                    "{} is not empty and holds no Tripoley site: choose a new or empty folder \
                     (nothing was written)",
                    dir.display()
                )))
            }
        }
    }
}

fn cannot(what: &str, path: &Path, e: &std::io::Error) -> Failure {
    Failure {
        message: format!("cannot {what} {}: {e}", path.display()),
        code: 1,
    }
}
