//! The binary's allocator, mimalloc, and the server's way of handing freed
//! memory back to the system.

use std::time::Duration;

/// mimalloc rather than the system's allocator: the web server and the load
/// generator allocate and free a frame for every message, where glibc's
/// malloc took about a tenth of their time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// How often freed memory is offered back to the system.
const PURGE_EVERY: Duration = Duration::from_secs(1);

/// Starts a thread that hands pages freed for a second back to the system.
///
/// mimalloc keeps freed pages for a second in case they are wanted again, and
/// gives them back only when some thread next allocates through its slow
/// path. A server that has just shed a flood of connections is quiet: no
/// thread goes that way, and a flood's 100 MiB stayed resident for good
/// (issue 31). `mi_collect(false)` from any thread gives back, program-wide,
/// what has been free longer than the delay; it frees nothing in use and
/// costs a few microseconds when there is nothing to give.
pub fn return_freed_pages() {
    let spawned = std::thread::Builder::new()
        .name("allocator-purge".into())
        .spawn(|| {
            loop {
                std::thread::sleep(PURGE_EVERY);
                collect();
            }
        });
    // Without the thread the server works as before, only holding more memory.
    drop(spawned);
}

/// Gives back the calling thread's freed pages, at most once every
/// [`PURGE_EVERY`] on each thread: the hook of an async runtime's worker
/// about to wait for work (`on_thread_park`). mimalloc keeps what a thread
/// freed in that thread's own heap, and the purge thread's collection
/// reaches only its own and the abandoned ones: after a flood the pages a
/// worker had freed stayed until it next allocated through the slow path,
/// so how much came back hung on which thread had read which connection
/// (half of a flood's 100 MiB or less, under load). A worker that goes
/// idle now hands back its own. (Cheap when there is nothing to give; a
/// worker parks thousands of times a second under load, hence the limit.)
pub fn return_own_freed_pages() {
    thread_local! {
        static LAST: std::cell::Cell<Option<std::time::Instant>> =
            const { std::cell::Cell::new(None) };
    }
    let now = std::time::Instant::now();
    if LAST
        .get()
        .is_none_or(|last| now.duration_since(last) >= PURGE_EVERY)
    {
        LAST.set(Some(now));
        collect();
    }
}

/// The one call into the allocator itself.
#[allow(unsafe_code)]
fn collect() {
    // SAFETY: `mi_collect` takes no pointer and has no precondition; mimalloc
    // documents it as callable from any thread at any time.
    unsafe { libmimalloc_sys::mi_collect(false) };
}
