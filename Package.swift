// swift-tools-version:6.0
import PackageDescription

// Module layout: see ../shared/design/ARCHITECTURE.md and README.md.
// C libraries are wrapped by the C* targets and seen only by CareSpeech,
// CareTerminal, CareReport and the executable.
let package = Package(
    name: "CareVoice",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "carevoice", targets: ["carevoice"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        // C wrappers: module maps plus tiny shims where Swift cannot call C directly.
        .target(name: "CEspeakNG", linkerSettings: [.linkedLibrary("espeak-ng")]),
        .target(
            name: "CPocketSphinx",
            cSettings: [
                .unsafeFlags(["-I/usr/include/pocketsphinx", "-I/usr/include/sphinxbase",
                              "-I/usr/include/x86_64-linux-gnu/sphinxbase", "-I/usr/include/x86_64-linux-gnu"]),
            ],
            linkerSettings: [.linkedLibrary("pocketsphinx"), .linkedLibrary("sphinxbase")]
        ),
        .target(name: "CALSA", linkerSettings: [.linkedLibrary("asound")]),
        .systemLibrary(name: "CPangoCairo", pkgConfig: "pangocairo"),
        .target(
            name: "CEditLine",
            cSettings: [.unsafeFlags(["-I/usr/include/editline"])],
            linkerSettings: [.linkedLibrary("edit")]
        ),

        // Pure logic: no I/O.
        .target(name: "CareModel"),
        .target(name: "CareLanguage", dependencies: ["CareModel", "Yams"]),

        // I/O.
        .target(name: "CareStore", dependencies: ["CareModel", .product(name: "GRDB", package: "GRDB.swift"),
                                                  .product(name: "Logging", package: "swift-log")]),
        .target(
            name: "CareSpeech",
            dependencies: ["CareModel", "CEspeakNG", "CPocketSphinx", "CALSA", .product(name: "Logging", package: "swift-log")]
        ),
        .target(name: "CareTerminal", dependencies: ["CEditLine"]),
        // Reports for a doctor: PDF through cairo and pango.
        .target(name: "CareReport", dependencies: ["CareModel", "CareLanguage", "CPangoCairo"]),

        // The dialog (pure reducer) and the runtime that performs its effects.
        .target(
            name: "CareAssistant",
            dependencies: ["CareModel", "CareLanguage", "CareStore", "CareSpeech", "CareTerminal",
                           .product(name: "Logging", package: "swift-log")]
        ),
        .executableTarget(
            name: "carevoice",
            dependencies: ["CareAssistant", "CareModel", "CareLanguage", "CareStore", "CareSpeech", "CareTerminal", "CareReport",
                           .product(name: "ArgumentParser", package: "swift-argument-parser"),
                           .product(name: "Logging", package: "swift-log")]
        ),

        // Helpers shared by the test targets: the built binary, and speech made by it.
        .target(name: "CareTestSupport", dependencies: ["CareSpeech"], path: "Tests/CareTestSupport"),
        .testTarget(name: "CareModelTests", dependencies: ["CareModel"]),
        .testTarget(name: "CareLanguageTests", dependencies: ["CareLanguage", "CareModel"]),
        .testTarget(name: "CareStoreTests", dependencies: ["CareStore", "CareModel"]),
        .testTarget(name: "CareSpeechTests", dependencies: ["CareSpeech", "CareModel", "CareTestSupport"]),
        .testTarget(name: "CareTerminalTests", dependencies: ["CareTerminal"]),
        .testTarget(name: "CareReportTests", dependencies: ["CareReport", "CareLanguage", "CareModel"]),
        .testTarget(name: "CareAssistantTests", dependencies: ["CareAssistant", "CareLanguage", "CareModel", "CareStore", "CareTestSupport"]),
        .testTarget(name: "CarevoiceTests", dependencies: ["CareSpeech", "CareLanguage", "CareStore", "CareModel", "CareTestSupport",
                                                         .product(name: "GRDB", package: "GRDB.swift")]),
    ],
    swiftLanguageModes: [.v5]
)
