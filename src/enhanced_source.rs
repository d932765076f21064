//! Where enhanced synopses come from. With the `enhanced` feature (native builds, the enhanced
//! wasm module in enhanced/, the fuzz targets) the analyzers of `src/enhanced/` run here. The main
//! wasm module is built without them (they are ~49 KB of its 250 KB gzipped budget): there the
//! binding (src/wasm.rs) installs, for the length of one call, a source that asks the host, which
//! asks the enhanced module. Every decision around the analyzers (when a synopsis is enhanced,
//! its length bound against the reference's stub) stays in `stub.rs`, in both builds.

use crate::synopsis::Synopsis;

/// The enhanced synopsis of `output` given the reference's synopsis of it (its fallback and the
/// source of its sample): `enhanced::generate_from`.
#[cfg(feature = "enhanced")]
pub fn enhanced_synopsis(output: &str, mime_type: &str, reference: Synopsis) -> Synopsis {
    crate::enhanced::generate_from(output, mime_type, reference)
}

/// A source of enhanced synopses outside this build: `(output, mime_type, reference)` to the
/// enhanced synopsis, or `None` when it failed (the source keeps the failure for its caller).
#[cfg(not(feature = "enhanced"))]
pub type Source = Box<dyn Fn(&str, &str, &Synopsis) -> Option<Synopsis>>;

#[cfg(not(feature = "enhanced"))]
thread_local! {
    static SOURCE: std::cell::RefCell<Option<Source>> = const { std::cell::RefCell::new(None) };
}

/// Runs `run` with `source` answering the enhanced synopses it asks for, then removes it.
#[cfg(not(feature = "enhanced"))]
pub fn with_source<R>(source: Source, run: impl FnOnce() -> R) -> R {
    let previous = SOURCE.with(|slot| slot.replace(Some(source)));
    let answer = run();
    SOURCE.with(|slot| slot.replace(previous));
    answer
}

/// The installed source's enhanced synopsis; the reference's synopsis when the source failed or
/// none is installed. The binding turns a failure into the call's error, so that synopsis never
/// reaches a caller: it only lets the call run to its end.
#[cfg(not(feature = "enhanced"))]
pub fn enhanced_synopsis(output: &str, mime_type: &str, reference: Synopsis) -> Synopsis {
    let answered = SOURCE.with(|slot| {
        let slot = slot.borrow();
        slot.as_ref()
            .and_then(|source| source(output, mime_type, &reference))
    });
    answered.unwrap_or(reference)
}
