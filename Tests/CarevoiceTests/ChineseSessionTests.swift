import CareModel
import CareTestSupport
import CareSpeech
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
        #expect(run.stdout.contains("6.5 mmol/L，早餐前。要保存吗？说“对”就保存。"), "\(run.stdout)")
        #expect(run.stdout.contains("已保存：6.5 mmol/L，早餐前。"), "\(run.stdout)")
        #expect(run.stdout.contains("7.2 mmol/L，晚餐后。要保存吗？说“对”就保存。"), "typed, so not a guess: \(run.stdout)")
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
        let english = try CLI.withTemporaryDirectory { fresh in
            try CLI.run(["--text", "--no-speech", "--data-dir", fresh.path], input: "goodbye\n",
                        environment: ["LANG": "en_CA.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""])
        }
        #expect(english.stdout.contains("Hello"), "\(english.stdout)")
    }

    /// Spoken Chinese through --audio-in. The general model hears too little Chinese, so a
    /// recording is first refused in one sentence that says how to go on (and the assistant
    /// takes typing meanwhile). Once `carevoice enroll` has learned the voice from the table's
    /// phrases, said after the assistant, the same recording is heard: each reading is read back
    /// as a guess, digit by digit (`speech.guessesReadings`); one confirmed with 对 is saved, and
    /// one confirmed with 好; one answered 不对 is not, nor one answered 没有; and 救命 gives
    /// China's numbers. Until the grammar listened for 好的 and 没有, a learned voice heard 好 as
    /// 不要 and 没有 as 没错, a yes.
    @Test func spokenChineseIsHeardOnceTheVoiceIsLearned() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let voice = "cmn-latn-pinyin+m3"
        let session = try Session.chinese(["血糖六点五早餐前", "对", "血糖七点二晚餐后", "不对", "血糖八点一午餐前", "没有",
                                                 "血糖五点四晚餐前", "好", "救命"], voice: voice, in: dir)
        let assistant = ["--locale", "zh-Hans", "--country", "CN", "--audio-in", session.path, "--no-speech", "--data-dir", dir.path]
        let refused = try CLI.run(assistant)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("要听懂您说的中文，我得先学会您的声音：请运行 carevoice enroll"), "\(refused.stderr)")
        let typed = try CLI.run(["--locale", "zh-Hans", "--no-speech", "--microphone", "no-such-device", "--data-dir", dir.path],
                                input: "学习我的声音\n对\n再见\n")
        #expect(typed.stdout.contains("在那之前请您打字输入"), "\(typed.stdout)")
        // Learning the voice can be asked for typed; without a microphone that is said before any phrase.
        #expect(typed.stdout.contains("您也可以现在输入：学习我的声音。"), "\(typed.stdout)")
        #expect(typed.stdout.contains("现在要学习您的声音吗？您跟着我说40句短语"), "\(typed.stdout)")
        #expect(typed.stdout.contains("学习您的声音需要麦克风：cannot open capture device no-such-device"), "\(typed.stdout)")
        #expect(!typed.stdout.contains("第1句"), "\(typed.stdout)")

        let phrases = try Session.chinese(Session.chineseTable.enrollment.prompts, voice: voice, in: dir)
        let enrolled = try CLI.run(["enroll", "--locale", "zh-Hans", "--audio-in", phrases.path, "--no-speech", "--data-dir", dir.path])
        #expect(enrolled.status == 0, "\(enrolled.stdout) \(enrolled.stderr)")
        #expect(enrolled.stdout.contains("第1句，共40句：请说“一二三”"), "\(enrolled.stdout)")
        #expect(enrolled.stdout.contains("学会了您的声音"), "\(enrolled.stdout)")
        // The seconds of speech are the words said, not the silence and padding around them
        // (counted in, they came to more than the whole recording).
        let seconds = try #require(enrolled.stdout.firstMatch(of: #/一共(\d+)秒的语音/#).flatMap { Double($0.1) }, "\(enrolled.stdout)")
        let recording = try WAVFile.read(phrases).duration
        #expect(seconds > 20 && seconds < recording * 0.8, "\(seconds) s of speech in \(recording) s")

        let run = try CLI.run(assistant)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("您说的好像是6.5 mmol/L，早餐前，也就是六，点，五。对吗？"), "\(run.stdout)")
        #expect(run.stdout.contains("已保存：6.5 mmol/L，早餐前。"), "\(run.stdout)")
        #expect(run.stdout.contains("您说的好像是7.2 mmol/L，晚餐后，也就是七，点，二。对吗？"), "\(run.stdout)")
        #expect(run.stdout.contains("您说的好像是8.1 mmol/L，午餐前，也就是八，点，一。对吗？"), "\(run.stdout)")
        #expect(run.stdout.components(separatedBy: "没有保存。").count - 1 == 2, "\(run.stdout)")
        #expect(run.stdout.contains("救护车：120。"), "\(run.stdout)")
        let saved = try readings(in: dir).sorted { $0.id < $1.id }
        #expect(saved.map(\.mmolPerL) == [6.5, 5.4])
        #expect(saved.map(\.tag) == ["before-breakfast", "before-dinner"])

        // Speech that Mandarin's syllables explain better than the reading grammar is turned
        // away (OtherWordsCheck). The grammar alone made this a reading for a time not yet come
        // ("今天下午 三 点 十 血糖值 三 散步后"), which it fits well enough to be taken.
        let outing = try Session.chinese(["明天下午三点去公园散步"], voice: voice, in: dir)
        let aside = try CLI.run(["--locale", "zh-Hans", "--country", "CN", "--audio-in", outing.path, "--no-speech",
                                 "--data-dir", dir.path])
        #expect(aside.status == 0, "\(aside.stderr)")
        #expect(aside.stdout.contains("抱歉，我没听清楚。") && !aside.stdout.contains("这个时间还没到"), "\(aside.stdout)")
        #expect(try readings(in: dir).count == 2)
    }

    /// What the Chinese recognizer can already do, measured by `listen` on espeak-ng's pinyin
    /// voice: the grammar of each state, with Chinese words in the English model's phones, hears
    /// a reading's value and tag, an emergency, and the answers 不对 and 取消.
    @Test(arguments: [("reading", "血糖六点五早餐前", ["血糖 六 点 五 早餐前", "血糖 六 点 五 早饭前"]),   // the same tag
                      ("reading", "救命", ["救命", "急救", "救护车", "帮帮我", "紧急情况"]),   // any emergency word
                      ("answer", "不对", ["不对"]), ("answer", "取消", ["取消"])])
    func theChineseRecognizerHearsWhatItMeasures(_ state: String, _ said: String, _ heard: [String]) throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("said.wav")
        #expect(try CLI.run(["say", "--locale", "zh-Hans", "--out", wav.path, said]).status == 0)
        let run = try CLI.run(["listen", "--locale", "zh-Hans", "--state", state, "--audio-in", wav.path, "--data-dir", dir.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(heard.contains { run.stdout.contains($0) }, "\(said) in \(state): \(run.stdout)")
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
        let run = try CLI.withTemporaryDirectory { dir in
            try CLI.run(["emergency", "--country", country, "--locale", "zh-Hans", "--no-speech", "--data-dir", dir.path])
        }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("救护车"), "\(run.stdout)")
        for number in numbers { #expect(run.stdout.contains(number), "\(number): \(run.stdout)") }
    }
    /// The doctor's report and e-mail in Chinese: a CJK font embedded, dates written 2026年11月22日,
    /// every reading a row, shares as 36%, and the e-mail's subject and body in Chinese.
    @Test func aChineseReportAndEmailForTheDoctor() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try EmailTests.seed(dir)
        let pdf = dir.appendingPathComponent("报告.pdf")
        let run = try CLI.run(["report", "--locale", "zh-Hans", "--data-dir", dir.path, "--pdf", pdf.path, "--range", "1y"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("报告已写入 \(pdf.path)，共"), "\(run.stdout)")
        #expect(run.stdout.contains("60条读数"), "\(run.stdout)")

        let text = try ReportTests.tool("pdftotext", ["-layout", pdf.path, "-"])
        #expect(text.contains("血糖报告"))
        #expect(text.contains("姓名：李明"))
        #expect(text.range(of: #"读数时间：\d{4}年\d{1,2}月\d{1,2}日至\d{4}年\d{1,2}月\d{1,2}日"#, options: .regularExpression) != nil,
                "\(text.prefix(300))")
        #expect(text.range(of: #"在目标范围3\.9到10之内：\d+%"#, options: .regularExpression) != nil, "\(text.prefix(800))")
        #expect(!text.contains("百分之"), "written shares use %")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "yyyy年M月d日 HH:mm"
        let lines = text.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        let saved = try readings(in: dir)
        #expect(saved.count == 60)
        let missing = try saved.filter { reading in
            let takenAt = try #require(ISO8601DateFormatter().date(from: reading.takenAt), "\(reading.takenAt)")
            let row = "\(formatter.string(from: takenAt)) \(GlucoseLevel(reading.mmolPerL, .mmolPerL).displayValue(in: .mmolPerL)) 早餐前"
            return !lines.contains { $0.hasPrefix(row) }
        }
        #expect(missing.isEmpty, "\(missing.count) rows missing, e.g. \(missing.prefix(2))")
        let fonts = try ReportTests.tool("pdffonts", [pdf.path]).split(separator: "\n").dropFirst(2)
        #expect(fonts.contains { $0.contains("NotoSansCJK") })
        for font in fonts { #expect(font.split(separator: " ", omittingEmptySubsequences: true).dropLast(4).last == "yes", "\(font)") }

        let email = try CLI.run(["email", "--locale", "zh-Hans", "--data-dir", dir.path, "--to", "dr.wong@clinic.example.org",
                                 "--from", "li@example.org", "--sendmail", "/nonexistent/sendmail"])
        #expect(email.status == 0, "\(email.stderr)")
        #expect(email.stdout.contains("已写好一封发给dr.wong@clinic.example.org的电子邮件"), "\(email.stdout)")
        let path = try #require(email.stdout.components(separatedBy: "附有报告：").last?.components(separatedBy: "。请用").first)
        let mail = try EmailTests.Parsed(Data(contentsOf: URL(fileURLWithPath: path)))
        let subject = EmailTests.Parsed.decodeWords(mail.headers["Subject"] ?? "")
        #expect(subject.range(of: #"^血糖报告，\d{4}年\d{1,2}月\d{1,2}日至\d{4}年\d{1,2}月\d{1,2}日$"#, options: .regularExpression) != nil,
                "\(subject)")
        let body = String(decoding: mail.parts[0].body, as: UTF8.self)
        #expect(body.contains("附件是我从") && body.contains("共60条读数") && body.hasSuffix("李明\n"), "\(body)")
        #expect(mail.parts[1].body == (try Data(contentsOf: pdf)), "the attachment is the PDF, byte for byte")
    }
}
