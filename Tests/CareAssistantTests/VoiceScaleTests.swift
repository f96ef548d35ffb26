import Testing
@testable import CareAssistant

@Suite struct VoiceScaleTests {
    /// The scale whose recordings fit best on average wins; the fits of ee41's en-us+m3 (20
    /// enrollment phrases): 16.9 at 1, 18.2 at 1.04, 19.0 at 1.08, 17.2 at 1.12.
    @Test func theScaleWhoseWordsFitBestOnAverageIsChosen() {
        let fits: [Double: [Double?]] = [
            1.0: [16, 18, 17, 16, 17.5], 1.04: [18, 19, 17, 18, 19], 1.08: [19, 18, 19, 18, 18.5], 1.12: [17, 18, 17, 17, 18],
        ]
        #expect(VoiceScale.best(fits: fits) == 1.08)
    }

    /// Only recordings heard at every scale count: one heard only where it fits best would make
    /// that scale look better than it is.
    @Test func aRecordingNotHeardAtEveryScaleIsLeftOut() {
        var fits: [Double: [Double?]] = [1.0: [10, 10, 10, 10, 10, 10], 0.92: [9, 9, 9, 9, 9, 40]]
        #expect(VoiceScale.best(fits: fits) == 0.92)
        fits[1.0]![5] = nil
        #expect(VoiceScale.best(fits: fits) == 1.0)
    }

    /// Too few recordings, or none, leave the voice as it is; a tie goes to the scale nearest 1.
    @Test func tooFewRecordingsOrATieKeepTheVoiceAsItIs() {
        let few = Array(repeating: Double?(1), count: VoiceScale.minimumRecordings - 1)
        #expect(VoiceScale.best(fits: [1.0: few, 1.08: few.map { $0.map { $0 + 5 } }]) == 1.0)
        #expect(VoiceScale.best(fits: [:]) == 1.0)
        let five = Array(repeating: Double?(3), count: 5)
        #expect(VoiceScale.best(fits: [0.92: five, 1.0: five, 1.08: five]) == 1.0)
        #expect(VoiceScale.best(fits: [0.92: five, 1.12: five]) == 0.92)
    }
}
