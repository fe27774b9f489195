// The analysis runs here, off the page's thread, so the board stays responsive and the server pays nothing.
import '../no-eval.ts';
import { type AnalysisMessage, type AnalysisRequest, runAnalysisJob } from './analysisJob.ts';

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<AnalysisRequest>) => void) | null;
  postMessage: (message: AnalysisMessage) => void;
};
scope.onmessage = (event) => runAnalysisJob(event.data, (m) => scope.postMessage(m));
