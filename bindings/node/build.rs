//! Linker settings for a Node-API addon (symbols resolved by the loading node).
fn main() {
    napi_build::setup();
}
