//! The README's first screen: what the project is and how to start, before anything else.

/// The README's first 40 lines.
fn first_screen() -> Vec<&'static str> {
    include_str!("../../README.md").lines().take(40).collect()
}

#[test]
fn the_first_screen_gives_the_two_commands_and_the_install() {
    let screen = first_screen();
    let command = |wanted: &str| {
        screen
            .iter()
            .any(|line| line.split('#').next().unwrap().trim() == wanted)
    };
    for wanted in [
        "cargo run --release -- count 16",
        "cargo test",
        "cargo install --locked --path cli",
    ] {
        assert!(
            command(wanted),
            "the README's first 40 lines lack `{wanted}`"
        );
    }
    // The two set-up commands come first, before the install.
    let at = |wanted: &str| {
        screen
            .iter()
            .position(|line| line.starts_with(wanted))
            .unwrap_or_else(|| panic!("no line of the first 40 starts with `{wanted}`"))
    };
    assert!(at("cargo run --release") < at("cargo install"));
    // No GPU detail before them.
    let gpu_words = [
        "NQUEENS_GPU_ADAPTER",
        "NODEVICE_SELECT",
        "MESA_VK",
        "gpu_busy",
        "libvulkan",
    ];
    for line in &screen {
        assert!(
            !gpu_words.iter().any(|word| line.contains(word)),
            "GPU detail on the first screen: {line}"
        );
    }
}

#[test]
fn the_readme_installs_the_gpu_build_as_the_command_s_help_says() {
    // The command's `count --help` gives the same line (its own tests check both).
    let readme = include_str!("../../README.md");
    assert!(readme.contains("cargo install --locked --path cli --features gpu"));
}
