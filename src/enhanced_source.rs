//! Where enhanced synopses come from. With the `enhanced` feature (native builds, the enhanced
//! wasm module in bindings/enhanced, the fuzz targets) the analyzers of `src/enhanced/` run here.
//! The main wasm module (bindings/main) is built without them (they are ~49 KB of its 250 KB
//! gzipped budget): there the binding installs, for the length of one call, a source that asks
//! the host, which asks the enhanced module. Every decision around the analyzers (when a synopsis
//! is enhanced, its length bound against the reference's stub) stays in `stub.rs`, in both builds.

use std::cell::RefCell;

use crate::synopsis::Synopsis;

/// A source of enhanced synopses outside this build: `(output, mime_type, reference)` to the
/// enhanced synopsis, or `None` when it failed (the source keeps the failure for its caller).
pub type Source = Box<dyn Fn(&str, &str, &Synopsis) -> Option<Synopsis>>;

thread_local! {
    static SOURCE: RefCell<Option<Source>> = const { RefCell::new(None) };
}

/// Runs `run` with `source` answering the enhanced synopses it asks for, then removes it. An
/// installed source answers even in a build with the analyzers (a workspace build unifies the
/// core's features, so the main binding may link them): the binding decides where they come from.
pub fn with_source<R>(source: Source, run: impl FnOnce() -> R) -> R {
    let previous = SOURCE.with(|slot| slot.replace(Some(source)));
    let answer = run();
    SOURCE.with(|slot| slot.replace(previous));
    answer
}

/// The enhanced synopsis of `output` given the reference's synopsis of it (its fallback and the
/// source of its sample): the installed source's when there is one, else the analyzers' (with the
/// `enhanced` feature), else the reference's. A source that failed answers the reference's too:
/// the binding turns the failure into the call's error, so that synopsis never reaches a caller,
/// it only lets the call run to its end.
pub(crate) fn enhanced_synopsis(output: &str, mime_type: &str, reference: Synopsis) -> Synopsis {
    let installed = SOURCE.with(|slot| slot.borrow().is_some());
    if installed {
        let answered = SOURCE.with(|slot| {
            let slot = slot.borrow();
            slot.as_ref()
                .and_then(|source| source(output, mime_type, &reference))
        });
        return answered.unwrap_or(reference);
    }
    analyzers_synopsis(output, mime_type, reference)
}

/// What the analyzers linked into this build answer: `enhanced::generate_from`.
#[cfg(feature = "enhanced")]
pub fn analyzers_synopsis(output: &str, mime_type: &str, reference: Synopsis) -> Synopsis {
    crate::enhanced::generate_from(output, mime_type, reference)
}

/// No analyzers in this build and no source installed: the reference's synopsis.
#[cfg(not(feature = "enhanced"))]
fn analyzers_synopsis(_output: &str, _mime_type: &str, reference: Synopsis) -> Synopsis {
    reference
}
