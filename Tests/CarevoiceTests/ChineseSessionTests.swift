import CareTestSupport
import Foundation
import Testing

/// CareVoice in Simplified Chinese through the real binary: typed the way a Chinese input
/// method gives it, chosen by --locale, by the language setting or by $LANG.
@Suite struct ChineseSessionTests {
    /// A reading confirmed with 是, one corrected before its 对, and 救命 in the middle.
    @Test func aTypedChineseSession() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lines = ["血糖六点五早餐前", "是", "血糖七点二晚餐后", "血糖八点二晚餐后", "对", "救命",
                     "日记：早饭吃了粥和香蕉", "标签三", "对", "再见"]
        let run = try CLI.run(["--text", "--no-speech", "--locale", "zh-Hans", "--country", "CN", "--data-dir", dir.path],
                              input: lines.joined(separator: "\n") + "\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("6.5 mmol/L，早餐前。要保存吗？"), "\(run.stdout)")
        #expect(run.stdout.contains("已保存：6.5 mmol/L，早餐前。"), "\(run.stdout)")
        #expect(run.stdout.contains("7.2 mmol/L，晚餐后。要保存吗？"), "\(run.stdout)")
        #expect(run.stdout.contains("已保存：8.2 mmol/L，晚餐后。"), "\(run.stdout)")
        #expect(!run.stdout.contains("已保存：7.2"), "\(run.stdout)")
        #expect(run.stdout.contains("救护车：120。"), "the ambulance number of China: \(run.stdout)")
        #expect(run.stdout.contains("听到的是：早饭吃了粥和香蕉，标签晚餐"), "\(run.stdout)")
        #expect(run.stdout.contains("已保存第1条日记：早饭吃了粥和香蕉。"), "\(run.stdout)")
        #expect(!run.stdout.contains("Saved") && !run.stdout.contains("Hello"), "English in a Chinese session: \(run.stdout)")
        let saved = try readings(in: dir)
        #expect(saved.map(\.mmolPerL) == [8.2, 6.5])   // newest first
        #expect(saved.map(\.tag) == ["after-dinner", "before-breakfast"])
    }

    /// With nothing said, $LANG decides; once the language setting says English, it does.
    @Test func theLanguageComesFromTheSettingElseFromLANG() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let chinese = ["LANG": "zh_CN.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""]
        let first = try CLI.run(["--text", "--no-speech", "--data-dir", dir.path], input: "再见\n", environment: chinese)
        #expect(first.stdout.contains("您好"), "\(first.stdout)")
        let set = try CLI.run(["settings", "set", "language", "english", "--data-dir", dir.path], input: "对\n", environment: chinese)
        #expect(set.status == 0, "\(set.stdout) \(set.stderr)")
        let second = try CLI.run(["--text", "--no-speech", "--data-dir", dir.path], input: "goodbye\n", environment: chinese)
        #expect(second.stdout.contains("Hello"), "\(second.stdout)")
        let english = try CLI.run(["--text", "--no-speech", "--data-dir", CLI.temporaryDirectory().path], input: "goodbye\n",
                                  environment: ["LANG": "en_CA.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""])
        #expect(english.stdout.contains("Hello"), "\(english.stdout)")
    }

    /// Spoken Chinese cannot be recognized yet: a recording is refused in one clear sentence,
    /// and the assistant says it takes typing instead, while its voice still speaks (in pinyin).
    @Test func spokenChineseIsNotHeardYetAndSaysSo() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("zh.wav")
        let said = try CLI.run(["say", "--locale", "zh-Hans", "--out", wav.path, "血糖六点五早餐前"])
        #expect(said.status == 0, "\(said.stderr)")
        let run = try CLI.run(["--locale", "zh-Hans", "--audio-in", wav.path, "--no-speech", "--data-dir", dir.path])
        #expect(run.status != 0)
        #expect(run.stderr.contains("我还听不懂说出来的中文，请您打字输入。"), "\(run.stderr)")
        let typed = try CLI.run(["--locale", "zh-Hans", "--no-speech", "--microphone", "no-such-device", "--data-dir", dir.path],
                                input: "再见\n")
        #expect(typed.stdout.contains("我还听不懂说出来的中文，请您打字输入。"), "\(typed.stdout)")
    }

    /// --locale as people write it; a language CareVoice lacks is refused with the ones it has.
    @Test func localeNamesAsPeopleWriteThem() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["zh", "zh_CN", "zh-cn", "chinese"] {
            let run = try CLI.run(["readings", "--locale", name, "--data-dir", dir.path])
            #expect(run.stdout.contains("还没有读数。"), "\(name): \(run.stdout) \(run.stderr)")
        }
        let french = try CLI.run(["readings", "--locale", "fr", "--data-dir", dir.path])
        #expect(french.status != 0)
        #expect(french.stderr.contains("--locale takes en or zh-Hans, not fr"), "\(french.stderr)")
    }

    /// Emergency numbers read out in Chinese for China, Hong Kong and Taiwan.
    @Test(arguments: [("CN", ["120", "110", "119"]), ("HK", ["999"]), ("TW", ["119", "110"])])
    func emergencyNumbersInChinese(_ country: String, _ numbers: [String]) throws {
        let run = try CLI.run(["emergency", "--country", country, "--locale", "zh-Hans", "--no-speech",
                               "--data-dir", CLI.temporaryDirectory().path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("救护车"), "\(run.stdout)")
        for number in numbers { #expect(run.stdout.contains(number), "\(number): \(run.stdout)") }
    }
}
