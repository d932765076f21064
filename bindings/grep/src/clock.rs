//! The time budget of one search: wall time from the host's clock (`Date.now()` in wasm, where
//! std has no clock), `Instant` natively.

pub struct Budget {
    deadline: f64,
}

#[cfg(target_arch = "wasm32")]
fn now_ms() -> f64 {
    use wasm_bindgen::prelude::*;
    #[wasm_bindgen]
    extern "C" {
        #[wasm_bindgen(js_namespace = Date, js_name = now)]
        fn date_now() -> f64;
    }
    date_now()
}

#[cfg(not(target_arch = "wasm32"))]
fn now_ms() -> f64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1000.0
}

impl Budget {
    pub fn new(budget_ms: f64) -> Budget {
        Budget {
            deadline: now_ms() + budget_ms,
        }
    }

    pub fn spent(&self) -> bool {
        now_ms() > self.deadline
    }
}
