import ArgumentParser
import CareAssistant
import CareTerminal
import Foundation

/// Each Chinese prompt said by the assistant's voice and recognized back (`SpokenPromptCheck`).
struct BenchPrompts: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prompts",
        abstract: "Say every fixed prompt with the assistant's voice and recognize it back (a language spoken through pinyin).")

    @OptionGroup var common: CommonOptions
    @Option(help: "espeak-ng voice (default: the language's).") var voice: String?
    @Option(help: "Only the first N prompts.") var limit: Int?
    @Flag(help: "Print every prompt, not only the misses.") var details = false

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() throws {
        let env = try AppEnvironment.make(common)
        let check = try SpokenPromptCheck(table: env.table, resources: env.resources, voice: voice)
        let prompts = limit.map { Array(check.prompts.prefix($0)) } ?? check.prompts
        var right = 0
        let started = Date()
        for prompt in prompts {
            let outcome = try check.check(prompt)
            if outcome.isRight { right += 1 }
            if details || !outcome.isRight {
                Console.line("\(outcome.isRight ? "ok  " : "MISS") \(prompt.text) -> \(outcome.heard.isEmpty ? "(nothing)" : outcome.heard)")
            }
        }
        Console.line(String(format: "%.1f s per prompt", Date().timeIntervalSince(started) / Double(max(prompts.count, 1))))
        Console.line("prompts: \(right)/\(prompts.count) recognized back (\(String(format: "%.1f", 100 * Double(right) / Double(max(prompts.count, 1))))%)")
    }
}
