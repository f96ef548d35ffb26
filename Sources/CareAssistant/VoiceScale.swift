import CareSpeech

/// How much higher or lower a person's voice is heard (`Resampler.scaleFrequencies`) so that it
/// sits where the acoustic model expects a voice. Most espeak-ng voices sit lower than the
/// model's speakers and en-us+f3 higher; heard at its own scale each gained (models/README.md).
///
/// It is chosen from recordings whose words are known (enrollment phrases; later, what the
/// person confirmed): the scale at which those words fit the sound best on average. Without
/// the words the fit of what was heard chose worse, since a wrong hypothesis can fit well too.
/// Pure: the fits come from `VoiceEnrollment.fits(of:at:)`.
public enum VoiceScale {
    /// The scales tried: a voice up to 12 % lower or higher in steps of 4 % (multiples of 1/25,
    /// which 16 kHz resamples through small polyphase tables).
    public static let candidates = [0.88, 0.92, 0.96, 1.0, 1.04, 1.08, 1.12]

    /// Fewer recordings than this with a fit at every scale choose nothing: the voice stays as
    /// it is (1).
    public static let minimumRecordings = 5

    /// Whether a voice heard over this band is scaled. Not over a telephone band: its means were
    /// learned from voices as said, and the fits of known words are measured without them. On
    /// the real FSDD digits (8 kHz, each speaker's scale chosen from 20 of their digits) the
    /// choice jumped between 0.88 and 1.12 and lost 301 -> 254 of 320 (`bench scale`).
    public static func appliesTo(_ band: AudioBand) -> Bool { band == .wide }

    /// The scale whose recordings fit their words best on average. Only recordings with a fit
    /// at every scale count (index i of each list is recording i; nil: nothing heard); a tie
    /// goes to the scale nearest 1.
    public static func best(fits: [Double: [Double?]]) -> Double {
        let counts = Set(fits.values.map(\.count))
        guard counts.count == 1, let count = counts.first else { return 1 }
        let complete = (0..<count).filter { i in fits.values.allSatisfy { $0[i] != nil } }
        guard complete.count >= minimumRecordings else { return 1 }
        let means = fits.mapValues { list in complete.map { list[$0]! }.reduce(0, +) / Double(complete.count) }
        return means.max { a, b in a.value != b.value ? a.value < b.value : abs(a.key - 1) > abs(b.key - 1) }?.key ?? 1
    }
}
