import CareSpeech
import CareTestSupport
import Foundation
import Testing

@Suite(.serialized) struct OnboardingTests {
    private func emergency(_ dir: URL) throws -> [String: Any] {
        let run = try CLI.run(["emergency", "--json", "--data-dir", dir.path])
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    }

    @Test func typedAnswersAreSavedAtTheEnd() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try CLI.onboard(dir)
        #expect(run.stdout.contains("Here is what I have:"))
        let card = try emergency(dir)
        #expect(card["country"] as? String == "CA")
        #expect((card["contacts"] as? [[String: Any]])?.first?["name"] as? String == "Anna Li")
        #expect((card["summary"] as? String)?.contains("type 2 diabetes") == true)
    }

    @Test func quittingHalfWayKeepsNothing() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let half = CLI.onboardingAnswers.components(separatedBy: "\n").prefix(10).joined(separator: "\n") + "\n"
        let run = try CLI.run(["onboarding", "--no-speech", "--data-dir", dir.path], input: half)
        #expect(run.status == 0)
        #expect(run.stdout.hasSuffix("Nothing was saved. We can set things up next time.\n"))
        #expect(try emergency(dir)["country"] is NSNull)
        // The next time begins again from the first question.
        let again = try CLI.run(["onboarding", "--no-speech", "--data-dir", dir.path], input: "")
        #expect(again.stdout.contains("Which language would you like"))
    }

    @Test func spokenAnswersWithBackRepeatAndHelp() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let answers = [
            "english", "yes",
            "millimoles per litre", "yes",
            "metric", "yes",
            "repeat",
            "march fourth nineteen forty eight", "yes",
            "one hundred seventy centimetres", "yes",
            "back", "yes",                       // back to the height, kept
            "seventy kilograms", "yes",
            "help",
            "female", "yes",
            "type two", "yes",
            "canada", "yes",
            "skip",                              // a name cannot be said to a grammar: skipped
            "twelve hours", "yes",
            "yes",
        ]
        let wav = dir.appendingPathComponent("answers.wav")
        try WAVFile.write(try SpokenFixtures.session(answers), to: wav)
        let run = try CLI.run(["onboarding", "--audio-in", wav.path, "--no-speech", "--data-dir", dir.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("All saved."), "\(run.stdout)")
        #expect(run.stdout.contains("Ambulance, police and fire: 911.") == false, "no country yet when help was asked")
        #expect(run.stdout.contains("I don't know which country you are in"))
        let card = try emergency(dir)
        #expect(card["country"] as? String == "CA")
        let summary = try #require(card["summary"] as? String)
        #expect(summary.contains("type 2 diabetes"), "\(summary)")
        #expect(run.stdout.contains("born: 4 March 1948."))
        #expect(run.stdout.contains("height: 170 cm."))
        #expect(run.stdout.contains("weight: 70 kg."))
        #expect(run.stdout.contains("sex: female."))
        #expect(run.stdout.contains("reminder: 12 hours after your last reading."))
    }
}

/// The first start at a terminal: the questions come before anything else (`script` gives the
/// assistant a terminal; it is in every Debian, util-linux).
@Suite struct FirstStartTests {
    @Test func theQuestionsComeFirstAtATerminalAndOnlyUntilAProfileExists() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        func atTerminal() throws -> String {
            let command = "\(CLI.binary.path) --text --no-speech --data-dir \(dir.path)"
            // Lines typed one at a time, after the prompt is up, as a person would.
            let run = try CLI.run(["-c", "(sleep 2; printf 'quit\\n'; sleep 1) | script -qec '\(command)' /dev/null"],
                                  executable: URL(fileURLWithPath: "/bin/sh"))
            return run.stdout.replacingOccurrences(of: "\r", with: "")
        }
        let first = try atTerminal()
        #expect(first.hasPrefix("Welcome to CareVoice."), "\(first)")
        #expect(first.contains("Type your answers and press Enter."), "\(first)")
        #expect(first.contains("Nothing was saved."))
        // Piped input is not a person at a terminal: no questions, straight to readings.
        let piped = try CLI.run(["--text", "--no-speech", "--data-dir", dir.path], input: "quit\n")
        #expect(piped.stdout.hasPrefix("Hello, I'm CareVoice."))
        try CLI.onboard(dir)
        let later = try atTerminal()
        #expect(later.hasPrefix("Hello, I'm CareVoice."), "\(later)")
    }
}
