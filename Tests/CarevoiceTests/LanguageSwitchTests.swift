import CareSpeech
import CareTestSupport
import Foundation
import Testing

/// The language changed during a session: by the onboarding's first question, or by "speak
/// Chinese" later. What follows is said, shown and understood in the new language at once.
@Suite(.serialized) struct LanguageSwitchTests {
    /// "Chinese" answered to the first question of an English start: the other questions come in
    /// Chinese, are answered in Chinese, and the readings that follow are in Chinese too.
    @Test func chineseChosenAtTheFirstQuestionGoesOnInChinese() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let answers = ["Chinese", "yes", "毫摩尔", "对", "公制", "对", "1948年3月4日", "对", "170厘米", "对", "一百四十斤", "对",
                       "女", "对", "2型", "对", "加拿大", "对", "跳过", "十二小时", "对", "对"]
        let run = try CLI.run(["onboarding", "--no-speech", "--text", "--data-dir", dir.path],
                              input: answers.joined(separator: "\n") + "\n")
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let switched = try #require(lines.firstIndex(of: "好的，从现在起我说中文。"), "\(run.stdout)")
        #expect(lines[switched - 3] == "Chinese. Is that right?")
        #expect(lines[switched + 1] == "您的血糖仪显示的单位是毫摩尔每升，还是毫克每分升？")
        #expect(!run.stdout.contains("From the next start"))
        #expect(run.stdout.contains("体重：70 公斤。"), "\(run.stdout)")
        #expect(lines.last == "全部保存好了。谢谢您。", "\(run.stdout)")

        // Saved as Chinese: the next start speaks it without being told.
        let next = try CLI.run(["--no-speech", "--text", "--data-dir", dir.path], input: "血糖六点五\n对\n")
        #expect(next.stdout.contains("已保存：6.5 mmol/L。"), "\(next.stdout)")
        #expect(try readings(in: dir).map(\.mmolPerL) == [6.5])
    }

    /// "Speak Chinese" in an English session, then "换成英文" back: each change is confirmed in
    /// the language it leads to, and the readings in between are understood in it.
    @Test func aTypedLanguageChangeTakesEffectAtOnceAndBack() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLI.onboard(dir)
        let typed = ["speak chinese", "yes", "血糖七点二 早餐前", "对", "换成英文", "对", "glucose 5.5", "yes", "quit"]
        let run = try CLI.run(["--no-speech", "--text", "--data-dir", dir.path], input: typed.joined(separator: "\n") + "\n")
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        for expected in ["Language: Chinese. Shall I save it?", "已保存。语言：中文。", "已保存：7.2 mmol/L，早餐前。",
                         "语言：英文。要保存吗？说“对”就保存。", "Saved. Language: English.", "Saved: 5.5 mmol/L."] {
            #expect(lines.contains(expected), "\(expected) in \(run.stdout)")
        }
        #expect(try readings(in: dir).map(\.mmolPerL).sorted() == [5.5, 7.2])
    }

    /// A speech setting changed in Chinese keeps the voice reading pinyin: the sentence after it
    /// sounds like the same sentence said by `say` at the new rate (an envelope correlation of
    /// 0.9996 here; 0.54 when the changed setting dropped the pinyin and the voice read the
    /// characters). The language this run was started in (--locale) stays, though the saved
    /// setting is English.
    @Test func aSpeechSettingChangedInChineseKeepsThePinyinVoice() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLI.onboard(dir)
        let spoken = dir.appendingPathComponent("spoken.wav")
        let run = try CLI.run(["--locale", "zh-Hans", "--text", "--audio-out", spoken.path, "--data-dir", dir.path],
                              input: "说慢一点\n对\n")
        #expect(run.stdout.hasSuffix("已保存。语速：每分钟130个字。\n请告诉我下一个读数，或者说“再见”。\n"), "\(run.stdout)")
        let reference = dir.appendingPathComponent("reference.wav")
        #expect(try CLI.run(["say", "--locale", "zh-Hans", "--rate", "130", "--out", reference.path,
                             "请告诉我下一个读数，或者说“再见”。"]).status == 0)
        let said = try WAVFile.read(spoken).samples, expected = try WAVFile.read(reference).samples
        // Every sentence is followed by 0.3 s of silence.
        let pause = 22050 * 3 / 10
        try #require(said.count > expected.count + pause)
        let last = Array(said[(said.count - pause - expected.count)..<(said.count - pause)])
        #expect(Self.envelopeCorrelation(last, expected) > 0.95)
    }

    /// How alike two recordings' loudness contours are (RMS in 20 ms frames at 22 050 Hz):
    /// 1 for the same sounds at the same times.
    static func envelopeCorrelation(_ a: [Int16], _ b: [Int16]) -> Double {
        func envelope(_ x: [Int16]) -> [Double] {
            stride(from: 0, to: x.count - 441, by: 441).map { start in
                (x[start..<(start + 441)].reduce(0.0) { $0 + Double($1) * Double($1) } / 441).squareRoot()
            }
        }
        let ea = envelope(a), eb = envelope(b)
        let dot = zip(ea, eb).reduce(0.0) { $0 + $1.0 * $1.1 }
        let norms = (ea.reduce(0.0) { $0 + $1 * $1 } * eb.reduce(0.0) { $0 + $1 * $1 }).squareRoot()
        return norms > 0 ? dot / norms : 0
    }

    /// By voice, in a recording: "speak Chinese", "yes". Chinese is heard only with a learned
    /// voice, and none is stored, so the assistant says so in Chinese and hears nothing more of
    /// the recording. The English reading after the switch is not decoded as English either.
    @Test func aSpokenSwitchToALanguageNotYetHeardSaysHowToBeHeard() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try CLI.onboard(dir)
        let wav = try Session.wav(["speak chinese", "yes", "glucose six point five", "yes"], in: dir)
        let run = try CLI.run(["--audio-in", wav.path, "--no-speech", "--data-dir", dir.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Heard: change my language to chinese"), "\(run.stdout)")
        #expect(run.stdout.contains("已保存。语言：中文。"), "\(run.stdout)")
        #expect(run.stdout.contains("要听懂您说的中文，我得先学会您的声音"), "\(run.stdout)")
        #expect(!run.stdout.contains("6.5"), "\(run.stdout)")
        #expect(try readings(in: dir).isEmpty)
    }
}
