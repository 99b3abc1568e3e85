export { seasonalNaive, wape } from './accuracy';
export { averageDemandInterval, bestCroston, fitCroston, forecastCroston, INTERMITTENT_ADI } from './croston';
export { bestHoltWinters, fitHoltWinters, forecastHoltWinters } from './holt-winters';
export { forecastDemand, type DemandForecast, type ForecastMethod, type ForecastOptions } from './forecast';
export { suggestReorder, type ReorderInput, type ReorderSuggestion } from './reorder';
