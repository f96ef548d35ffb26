import ArgumentParser
import CareAssistant
import CareLanguage
import CareModel
import CareSpeech
import CareTerminal
import Foundation

/// What is due now, for cron or a systemd timer: one line when a reading is due, nothing
/// otherwise (so a timer sends nothing), and a word on the next one when run at a terminal.
struct RemindCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remind", abstract: "Say whether a glucose reading is due (for cron or a systemd timer).")
    @OptionGroup var common: CommonOptions
    @Flag(help: "Also say it aloud.") var speak = false
    @Option(help: "ALSA playback device.") var speaker = "default"

    func run() throws {
        let env = try AppEnvironment.make(common)
        let book = env.phrasebook
        let store = try openStore(env)
        let settings = try store.settings()
        let now = Date()
        let message: Message
        switch ReadingReminder.status(interval: settings.reminder, lastReading: try store.latestReading()?.takenAt, now: now) {
        case .due(_, let last):
            message = book.reminder(lastReading: last, now: now)
        case .notDue(let until):
            guard isatty(STDOUT_FILENO) == 1 else { return }
            return Console.line(book.text(.reminderNotDue, ["when": book.describeTime(until, now: now)]))
        case .off:
            guard isatty(STDOUT_FILENO) == 1 else { return }
            return Console.line(book.text(.reminderOff))
        }
        Console.line(message.display)
        guard speak, settings.speechOn, !env.noSpeech else { return }
        do {
            let output = SpeakerOutput(synthesizer: try SpeechSynthesizer.shared(), sink: try SpeakerSink(device: speaker),
                                       style: SpeechOutputStyle(settings: settings, baseVoice: env.table.speech.voice))
            try output.speak(message.spoken)
        } catch {
            Console.line(book.text(.noSpeaker))
        }
    }
}
